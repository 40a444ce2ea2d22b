//===- EpilogueEmitter.cpp - a GEMM's epilogue on its accumulators --------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A thread of a consumer warpgroup holds, per m64 slab, two rows (upper and
// lower half) and in each 32 columns of every B box: register
// r = 4·(s / 8) + 2·half + s % 8 holds tile column 2·(lane % 4) + s for the
// thread's offsets s ∈ {8·j, 8·j + 1 | j < 16}. The epilogue is evaluated at
// each (row, s): a value of the region at offset s and shift `delta` is
// column n0 + 2·(lane % 4) + s + delta of that tensor. Slices add to the
// shift, concats pick the piece of the plan's range, RoPE reads the partner
// at s ± head_dim / 2 (or s ^ 1) of the same thread, and the accumulator is
// the register of the box whose base is the shift.
//
// Inputs are read without branches at clamped addresses (the row clamped
// to M - 1, the column pair to the tensor's last), so the loads of a row
// can be in flight together; only stores are predicated. Per-row inputs
// come loaded before the tile's mainloop (loadRowInputs). The inputs the
// producer loads through the ring are read from its shared-memory boxes,
// a slab at a time.
//
//===----------------------------------------------------------------------===//

#include "EpilogueEmitter.h"

#include "ApproximateTanh.h"
#include "KernelFunction.h"
#include "LaneSums.h"
#include "VectorAccess.h"
#include "coda/Dialect/Coda/Utils/ScalarMath.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/DenseMap.h"

#include <array>
#include <limits>

using namespace mlir;
using namespace mlir::coda;

/// Static column offsets of a thread's registers within a box.
constexpr int64_t kOffsetsPerRow = kTileN / 4;
/// A batch: the column pairs of both rows of a slab that are evaluated
/// before their stores. Four pairs of two rows measured fastest among the
/// batches that do not spill in the fused kernels since their tile inputs
/// come from the ring (bench/NOTES.md, steps 6, 17 and 37).
constexpr int64_t kPairsPerBatch = 4;

namespace {
/// Emits the epilogue for one row of one range: values at (value, shift,
/// offset), memoized, and the input loads they need.
class RowEvaluator {
public:
  /// The evaluator of the thread's row `half` of slab `slab`, output row
  /// `row`, in the slab's columns from `n0`.
  RowEvaluator(OpBuilder &b, Location loc, GemmOp gemm,
               const EpilogueFrame &frame, const EpilogueRange &range,
               int64_t slab, int64_t half, Value row, Value n0)
      : b(b), loc(loc), gemm(gemm), frame(frame), range(range), slab(slab),
        half(half), row(row), n0(n0) {
    Value last = arith::SubIOp::create(b, loc, frame.rows, index(1));
    loadRow = arith::MinUIOp::create(b, loc, row, last);
  }

  /// The value of `value` at thread offset `s`, shift `delta`.
  Value at(Value value, int64_t delta, int64_t s);
  /// The row's element of `targets`, an integer [M] epilogue input, as an
  /// index, memoized.
  Value target(Value targets);
  /// Where the inputs loaded by TMA sit for the slab: a ring step or the
  /// epilogue warpgroup's buffer (none: read from global memory).
  void setInputBoxes(ArrayRef<std::optional<InputBoxes>> boxes) {
    boxInputs = boxes;
  }

private:
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  /// Reads input `input` at the load row and column `column` (a pair of
  /// adjacent elements when `pair`), widened to f32.
  SmallVector<Value, 2> load(unsigned input, Value column, bool pair);
  /// The tile column n0 + 2·quad + `offset` of the thread's offset.
  Value tileColumn(int64_t offset) {
    return arith::AddIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc, n0, arith::MulIOp::create(b, loc, frame.quad, index(2))),
        index(offset));
  }
  /// Input `input` at column n0 + 2·quad + `offset` (even), memoized.
  std::pair<Value, Value> inputPair(unsigned input, int64_t offset);
  Value rope(RoPEOp rope, int64_t delta, int64_t s);
  /// w · (exp(x − lse) − [column = target]) at the value's column
  /// n0 + 2·quad + s + delta.
  Value softmaxTargetGrad(SoftmaxTargetGradOp grad, int64_t delta, int64_t s);
  /// `op`'s scalar math with approximate transcendentals and division
  /// (fastmath afn: ex2.approx, rcp.approx; tanh and sigmoid by
  /// tanh.approx), whose error is far below the 16-bit rounding of the
  /// results.
  Value buildApproximateScalar(Operation *op, ArrayRef<Value> args);

  OpBuilder &b;
  Location loc;
  GemmOp gemm;
  const EpilogueFrame &frame;
  const EpilogueRange &range;
  int64_t slab, half;
  Value row, n0, loadRow;
  ArrayRef<std::optional<InputBoxes>> boxInputs;
  llvm::DenseMap<std::tuple<Value, int64_t, int64_t>, Value> values;
  /// How an input is read: a column pair at n0 + 2·quad + offset, a RoPE
  /// table at 2·quad + offset ("half") or quad + offset (interleaved), or
  /// the row's integer target. Per-row inputs come loaded (frame.rowInputs).
  enum class Access { Pair, HalfTable, InterleavedTable, Target };
  llvm::DenseMap<std::tuple<unsigned, Access, int64_t>, SmallVector<Value, 2>>
      loads;
};
} // namespace

SmallVector<Value, 2> RowEvaluator::load(unsigned input, Value column,
                                         bool pair) {
  Value operand = gemm.getInputs()[input];
  auto type = cast<RankedTensorType>(operand.getType());
  Value position = column;
  if (type.getRank() == 2)
    position = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, loadRow, index(getWidth(operand))),
        column);
  return SmallVector<Value, 2>(loadWidened(b, loc, frame.inputs[input],
                                           type.getElementType(), position,
                                           pair ? 2 : 1));
}

std::pair<Value, Value> RowEvaluator::inputPair(unsigned input,
                                                int64_t offset) {
  auto key = std::make_tuple(input, Access::Pair, offset);
  auto it = loads.find(key);
  if (it == loads.end() && !boxInputs.empty() && boxInputs[input]) {
    // From the slab's boxes in shared memory.
    Value pointer = boxInputs[input]->pairs.pointerInRun(b, loc, offset, half);
    it = loads
             .try_emplace(
                 key, loadWidened(b, loc, pointer,
                                  getElementTypeOrSelf(gemm.getInputs()[input]),
                                  index(0), 2))
             .first;
  }
  if (it == loads.end()) {
    // Column n0 + 2·quad + offset, clamped to the last pair of the tensor
    // where the range's last tile reaches past it (2·quad is at most 6).
    // Unclamped, the offset folds into the load's immediate.
    int64_t width = getWidth(gemm.getInputs()[input]);
    int64_t lastTile = llvm::alignDown(range.end - 1, kTileN);
    Value column = tileColumn(offset);
    if (lastTile + 6 + offset > width - 2)
      column = arith::MinUIOp::create(b, loc, column, index(width - 2));
    it = loads.try_emplace(key, load(input, column, /*pair=*/true)).first;
  }
  return {it->second[0], it->second[1]};
}

Value RowEvaluator::rope(RoPEOp rope, int64_t delta, int64_t s) {
  int64_t headDim = rope.getHeadDim();
  int64_t position = s % headDim;
  bool halfStyle = rope.getStyle() == "half";
  bool first = halfStyle ? position < headDim / 2 : s % 2 == 0;
  int64_t partner =
      halfStyle ? (first ? s + headDim / 2 : s - headDim / 2) : s ^ 1;
  Value x = at(rope.getX(), delta, s);
  Value other = at(rope.getX(), delta, partner);

  // The pair's angle: column 2·quad + position % (head_dim / 2) of the
  // tables in the "half" style, quad + position / 2 when interleaved.
  auto table = [&](Value operand) -> Value {
    unsigned input = cast<BlockArgument>(operand).getArgNumber() - 1;
    int64_t angle = halfStyle ? position % (headDim / 2) : position / 2;
    int64_t start = halfStyle ? angle - angle % 2 : angle;
    // Shared by the pair (s, s + 1) only: keeping the angles of a row for
    // the next head would hold 2 x head_dim / 2 registers per row.
    auto key = std::make_tuple(
        input, halfStyle ? Access::HalfTable : Access::InterleavedTable,
        start + headDim * (s / 2));
    auto it = loads.find(key);
    if (it == loads.end()) {
      Value lanes = halfStyle
                        ? arith::MulIOp::create(b, loc, frame.quad, index(2))
                        : frame.quad;
      Value column = arith::AddIOp::create(b, loc, lanes, index(start));
      it = loads.try_emplace(key, load(input, column, halfStyle)).first;
    }
    return halfStyle ? it->second[angle % 2] : it->second[0];
  };
  Value cos = table(rope.getCos());
  Value sin = table(rope.getSin());
  Value rotated = arith::MulFOp::create(b, loc, other, sin);
  Value scaled = arith::MulFOp::create(b, loc, x, cos);
  return first ? arith::SubFOp::create(b, loc, scaled, rotated).getResult()
               : arith::AddFOp::create(b, loc, scaled, rotated).getResult();
}

Value RowEvaluator::softmaxTargetGrad(SoftmaxTargetGradOp grad, int64_t delta,
                                      int64_t s) {
  Value x = at(grad.getLogits(), delta, s);
  Value lse = at(grad.getLse(), delta, s);
  Value weight = at(grad.getWeights(), delta, s);
  Value isTarget =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                            tileColumn(s + delta), target(grad.getTargets()));
  // An approximate exp, as the epilogue's other transcendentals.
  auto approximate =
      arith::FastMathFlagsAttr::get(b.getContext(), arith::FastMathFlags::afn);
  Value probability = math::ExpOp::create(
      b, loc, arith::SubFOp::create(b, loc, x, lse), approximate);
  Type f32 = b.getF32Type();
  Value one = arith::ConstantOp::create(b, loc, b.getFloatAttr(f32, 1.0));
  Value zero = arith::ConstantOp::create(b, loc, b.getFloatAttr(f32, 0.0));
  Value difference = arith::SubFOp::create(
      b, loc, probability,
      arith::SelectOp::create(b, loc, isTarget, one, zero));
  return arith::MulFOp::create(b, loc, weight, difference);
}

Value RowEvaluator::buildApproximateScalar(Operation *op,
                                           ArrayRef<Value> args) {
  Block *block = b.getInsertionBlock();
  Block::iterator end = b.getInsertionPoint();
  Operation *previous = end == block->begin() ? nullptr : &*std::prev(end);
  Value result = buildElementwiseScalar(b, loc, op, args, buildApproximateTanh);
  auto approximate =
      arith::FastMathFlagsAttr::get(b.getContext(), arith::FastMathFlags::afn);
  for (Operation &created : llvm::make_range(
           previous ? std::next(previous->getIterator()) : block->begin(),
           b.getInsertionPoint()))
    if (auto math = dyn_cast<arith::ArithFastMathInterface>(created))
      created.setAttr(math.getFastMathAttrName(), approximate);
  return result;
}

Value RowEvaluator::target(Value targets) {
  unsigned input = cast<BlockArgument>(targets).getArgNumber() - 1;
  auto key = std::make_tuple(input, Access::Target, int64_t(0));
  auto it = loads.find(key);
  if (it == loads.end()) {
    Type element = cast<RankedTensorType>(targets.getType()).getElementType();
    Value value = LLVM::LoadOp::create(
        b, loc, element,
        getElementAddress(b, loc, frame.inputs[input], element, loadRow));
    it = loads
             .try_emplace(key, SmallVector<Value, 2>{arith::IndexCastOp::create(
                                   b, loc, b.getIndexType(), value)})
             .first;
  }
  return it->second[0];
}

Value RowEvaluator::at(Value value, int64_t delta, int64_t s) {
  if (isPerRow(value))
    delta = s = 0;
  auto key = std::make_tuple(value, delta, s);
  if (auto it = values.find(key); it != values.end())
    return it->second;

  Value result;
  if (value == gemm.getAccumulator()) {
    int64_t box = llvm::find(range.bases, delta) - range.bases.begin();
    int64_t reg = 4 * (s / 8) + 2 * half + s % 8;
    result = frame.accumulator(slab, box, reg);
  } else if (auto arg = dyn_cast<BlockArgument>(value)) {
    unsigned input = arg.getArgNumber() - 1;
    if (isPerRow(value)) {
      result = frame.rowInputs[input][2 * slab + half];
    } else {
      auto [first, second] = inputPair(input, s - s % 2 + delta);
      result = s % 2 == 0 ? first : second;
    }
  } else if (auto slice = value.getDefiningOp<SliceOp>()) {
    result = at(slice.getX(), delta + slice.getOffset(), s);
  } else if (auto concat = value.getDefiningOp<ConcatOp>()) {
    int64_t start = 0;
    for (Value piece : concat.getInputs()) {
      int64_t end = start + getWidth(piece);
      if (range.start + delta < end) {
        result = at(piece, delta - start, s);
        break;
      }
      start = end;
    }
  } else if (auto ropeOp = value.getDefiningOp<RoPEOp>()) {
    result = rope(ropeOp, delta, s);
  } else if (auto grad = value.getDefiningOp<SoftmaxTargetGradOp>()) {
    result = softmaxTargetGrad(grad, delta, s);
  } else {
    Operation *op = value.getDefiningOp();
    SmallVector<Value> args;
    for (Value operand : op->getOperands())
      args.push_back(at(operand, delta, s));
    result = buildApproximateScalar(op, args);
  }
  values[key] = result;
  return result;
}

/// The output row of the thread's row `half` (0: upper, 1: lower) of slab
/// `slab`: a slab's registers hold its row from rowBase and 8 further.
static Value threadRow(OpBuilder &b, Location loc, const TileShape &shape,
                       Value rowBase, int64_t slab, int64_t half) {
  return shape.slabRow(b, loc, rowBase, slab, 8 * half);
}

RowInputValues mlir::coda::loadRowInputs(OpBuilder &b, Location loc,
                                         GemmOp gemm,
                                         const GemmKernelPlan &plan,
                                         Value rowBase, Value rows,
                                         ValueRange inputs) {
  RowInputValues values(gemm.getInputs().size());
  Value last = arith::SubIOp::create(b, loc, rows,
                                     arith::ConstantIndexOp::create(b, loc, 1));
  for (auto [input, operand] : llvm::enumerate(gemm.getInputs())) {
    BlockArgument argument = gemm.getBody().getArgument(input + 1);
    if (!isPerRow(argument) || argument.use_empty())
      continue;
    // Each slab's rows of a 256-row tile, whose addresses are one base and
    // immediates; a wide tile's second slab has its first slab's rows.
    for (int64_t slab = 0; slab < plan.slabs; ++slab)
      for (int64_t half = 0; half < 2; ++half) {
        if (slab > 0 && plan.wide) {
          values[input].push_back(values[input][half]);
          continue;
        }
        Value row = arith::AddIOp::create(
            b, loc, rowBase,
            arith::ConstantIndexOp::create(b, loc, 64 * slab + 8 * half));
        Value value = loadWidened(
            b, loc, inputs[input], getElementTypeOrSelf(operand.getType()),
            arith::MinUIOp::create(b, loc, row, last), 1)[0];
        values[input].push_back(value);
      }
  }
  return values;
}

namespace {
/// Emits the epilogue of the output columns of one range, a slab at a time:
/// its two rows together, columns in batches. A batch's values come first,
/// so that its loads are in flight together, then its writes and its terms
/// of the partial sums; a batch's accumulator registers are dead after it.
/// Staged results go out chunk by chunk: the visiting order finishes a
/// chunk's pairs before the next chunk's (planOutputStaging).
class RangeEmitter {
public:
  RangeEmitter(OpBuilder &b, Location loc, GemmOp gemm,
               const GemmKernelPlan &plan, const EpilogueFrame &frame,
               const EpilogueRange &range);

  void emit();

private:
  /// One of the thread's rows, two per slab: its evaluator (memoized
  /// values and loads) and its running partial sums.
  struct RowState {
    Value row, inside;
    /// The slab's first output column, the thread's first column there
    /// (n0 + 2·quad), and the slab's 128-column tile (n0 / 128).
    Value n0, columnBase, tile;
    std::unique_ptr<RowEvaluator> evaluator;
    /// Each partial_reduce or partial_gather with its running value.
    SmallVector<std::pair<Operation *, Value>> sums;
  };

  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  /// "max" and "lse" keep the running maximum of the thread's columns (the
  /// log-sum-exp sums exp(x - max) in a second pass); the others a sum.
  static bool reducesToMax(Operation *op) {
    auto partial = dyn_cast<PartialReduceOp>(op);
    return partial &&
           (partial.getKind() == "max" || partial.getKind() == "lse");
  }
  /// The value a partial reduces or gathers from.
  static Value partialSource(Operation *op) {
    return getPartialsSource(op->getResult(0));
  }
  /// The column pairs in the order they are visited: a "half" RoPE's
  /// partners (head_dim / 16 pairs apart) next to each other, so that both
  /// are done with together.
  SmallVector<int64_t> visitingOrder();

  /// Adds the thread's two rows of a slab at column pair `j` to the block
  /// sums (addSlabRows), and after the slab, sums them across the eight
  /// lanes of each quad position, each lane keeping two of the block's
  /// column pairs, and stores those (storeBlockSums).
  void addSlabRows(RowState &upper, RowState &lower, int64_t j);
  void storeBlockSums(RowState &upper);

  /// One batch of slab `slab`'s column pairs.
  void emitBatch(int64_t slab, ArrayRef<int64_t> batch);
  /// The terms of column pair `j` of `state`'s row in its partials.
  void addPartialTerms(RowState &state, int64_t j, Value column,
                       Value columnInside);
  /// The tile results' `pairs` of column pair `j` of `state`'s row (half
  /// `half` of its slab), narrowed to their element types: into the
  /// staging buffer, over the input boxes, or stored from registers.
  void writeResults(RowState &state, int64_t half, int64_t j,
                    ArrayRef<std::pair<Value, Value>> pairs, Value column,
                    Value columnInside);
  /// After slab `slab`'s batches: its last chunk and its results over
  /// inputs go out, its block sums are stored, and its ring steps are
  /// released (or held, releaseHeldSlab).
  void finishSlab(int64_t slab);
  /// Releases the ring steps of the slab that holds results staged over
  /// inputs, once their stores have read them.
  void releaseHeldSlab();
  /// The partial reductions: the four lanes of the quad that share a row
  /// combine their sums; the quad's first lane stores the row's partial of
  /// its slab's tile at [row, n0 / 128].
  void storePartials();

  OpBuilder &b;
  Location loc;
  GemmOp gemm;
  const GemmKernelPlan &plan;
  const EpilogueFrame &frame;
  YieldOp yield;
  Type f32;
  Value zero, lowest;
  SmallVector<RowState> rowStates;
  /// Sums over the rows of a block: a warp's 16 rows of a slab, the lanes
  /// that share a quad position holding the same columns.
  SmallVector<PartialSumRowsOp> blockSums;
  /// Per block sum, per column pair j of the slab: the thread's sums, until
  /// pairs j and j + 8 are summed across the lane halves (xor 16) into
  /// pair j % 8 of `halfSums` (the lanes that keep pair j + 8 hold it
  /// there).
  SmallVector<SmallVector<std::array<Value, 2>>> slabSums, halfSums;
  SmallVector<int64_t> order;
  std::optional<OutputStaging> staging;
  /// The current slab's input boxes and staging chunk.
  SmallVector<std::optional<InputBoxes>> boxInputs;
  std::optional<int64_t> chunk;
  /// A slab whose ring steps hold results staged over inputs keeps them
  /// until those stores have read them. Where the ring holds every slab's
  /// steps at once, the wait is deferred to the next slab's middle (or the
  /// tile's end), so that the stores read while it computes (NOTES §52);
  /// else the next slab's steps need these slots and the wait is at once.
  std::optional<int64_t> heldSlab;
  bool defersRelease;
};
} // namespace

RangeEmitter::RangeEmitter(OpBuilder &b, Location loc, GemmOp gemm,
                           const GemmKernelPlan &plan,
                           const EpilogueFrame &frame,
                           const EpilogueRange &range)
    : b(b), loc(loc), gemm(gemm), plan(plan), frame(frame),
      yield(cast<YieldOp>(gemm.getBody().getTerminator())),
      f32(b.getF32Type()) {
  zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  lowest = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  Value n0, columnBase, tile;
  for (int64_t slab = 0; slab < plan.slabs; ++slab) {
    // A new column origin only where the slab's differs (wide tiles).
    Value slabN0 = frame.shape.slabColumn(b, loc, frame.n0, slab);
    if (slabN0 != n0) {
      n0 = slabN0;
      columnBase = arith::AddIOp::create(
          b, loc, n0, arith::MulIOp::create(b, loc, frame.quad, index(2)));
      tile = arith::DivUIOp::create(b, loc, n0, index(kTileN));
    }
    for (int64_t half = 0; half < 2; ++half) {
      RowState &state = rowStates.emplace_back();
      state.row = threadRow(b, loc, frame.shape, frame.rowBase, slab, half);
      state.n0 = n0;
      state.columnBase = columnBase;
      state.tile = tile;
      state.inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           state.row, frame.rows);
      state.evaluator = std::make_unique<RowEvaluator>(
          b, loc, gemm, frame, range, slab, half, state.row, n0);
      for (Value value : yield.getValues()) {
        Operation *partial = value.getDefiningOp();
        if (isa_and_present<PartialReduceOp, PartialGatherOp>(partial))
          state.sums.push_back(
              {partial, reducesToMax(partial) ? lowest : zero});
      }
    }
  }
  for (Value value : yield.getValues())
    if (auto sums = value.getDefiningOp<PartialSumRowsOp>())
      blockSums.push_back(sums);
  slabSums.assign(blockSums.size(),
                  SmallVector<std::array<Value, 2>>(kOffsetsPerRow / 2));
  halfSums.assign(blockSums.size(),
                  SmallVector<std::array<Value, 2>>(kOffsetsPerRow / 4));
  order = visitingOrder();
  if (plan.stagingColumns || plan.stagesOverInputs())
    staging.emplace(b, loc, plan, frame.staging);
  defersRelease = plan.stages >= plan.epilogueSteps();
}

SmallVector<int64_t> RangeEmitter::visitingOrder() {
  SmallVector<int64_t> visited;
  int64_t distance = 0;
  gemm.getBody().walk([&](RoPEOp rope) {
    if (rope.getStyle() == "half")
      distance = rope.getHeadDim() / 16;
  });
  for (int64_t base = 0; base < kOffsetsPerRow / 2;
       base += distance ? 2 * distance : 1)
    for (int64_t i = 0; i < std::max<int64_t>(distance, 1); ++i) {
      visited.push_back(base + i);
      if (distance)
        visited.push_back(base + i + distance);
    }
  return visited;
}

void RangeEmitter::addSlabRows(RowState &upper, RowState &lower, int64_t j) {
  for (auto [sums, columns] : llvm::zip_equal(blockSums, slabSums)) {
    Value x = sums.getX();
    for (int64_t e = 0; e < 2; ++e) {
      auto term = [&](RowState &state) -> Value {
        return arith::SelectOp::create(
            b, loc, state.inside, state.evaluator->at(x, 0, 8 * j + e), zero);
      };
      columns[j][e] = arith::AddFOp::create(b, loc, term(upper), term(lower));
    }
  }
  // Once both halves' pairs are summed, the first step across lanes, so
  // that half of the sums are live from then on.
  int64_t pair = j % (kOffsetsPerRow / 4);
  for (auto [columns, halves] : llvm::zip_equal(slabSums, halfSums)) {
    std::array<Value, 2> &lowerPair = columns[pair];
    std::array<Value, 2> &upperPair = columns[pair + kOffsetsPerRow / 4];
    if (!lowerPair[0] || !upperPair[0])
      continue;
    SmallVector<Value> kept =
        scatterSumStep(b, loc, lowerPair, upperPair, 16, frame.lane);
    halves[pair] = {kept[0], kept[1]};
    lowerPair = upperPair = {};
  }
}

void RangeEmitter::storeBlockSums(RowState &upper) {
  // The block's first row: the upper row of lane 0, a multiple of 16.
  Value laneRow = arith::DivUIOp::create(b, loc, frame.lane, index(4));
  Value blockRow = arith::SubIOp::create(b, loc, upper.row, laneRow);
  Value rowInside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          blockRow, frame.rows);
  Value rowStart = arith::MulIOp::create(
      b, loc,
      arith::DivUIOp::create(b, loc, blockRow,
                             index(PartialSumRowsOp::kEpilogueBlockRows)),
      index(plan.width));
  // Summed over the eight lanes of its quad position, each lane keeps the
  // sums of two column pairs, 2 (lane / 4) and 2 (lane / 4) + 1, and
  // stores them.
  Value firstPairColumn = arith::AddIOp::create(
      b, loc, upper.columnBase,
      arith::MulIOp::create(b, loc, laneRow, index(2 * 8)));
  for (auto [sums, columns] : llvm::zip_equal(blockSums, halfSums)) {
    Value output =
        frame.outputs[llvm::find(yield.getValues(), sums.getResult()) -
                      yield.getValues().begin()];
    SmallVector<Value> values;
    for (std::array<Value, 2> &sum : columns) {
      llvm::append_range(values, sum);
      sum = {};
    }
    assert(llvm::all_of(values, [](Value value) { return bool(value); }) &&
           "every column pair of the slab is visited");
    SmallVector<Value> kept =
        scatterSumsAcrossLanes(b, loc, values, {8, 4}, frame.lane);
    scf::IfOp::create(b, loc, rowInside, [&](OpBuilder &, Location) {
      for (int64_t t = 0; t < 2; ++t) {
        Value column =
            arith::AddIOp::create(b, loc, firstPairColumn, index(8 * t));
        Value columnInside = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::ult, column, index(plan.width));
        scf::IfOp::create(b, loc, columnInside, [&](OpBuilder &, Location) {
          storeNarrowed(b, loc, {kept[2 * t], kept[2 * t + 1]}, output, f32,
                        arith::AddIOp::create(b, loc, rowStart, column));
          scf::YieldOp::create(b, loc);
        });
      }
      scf::YieldOp::create(b, loc);
    });
  }
}

void RangeEmitter::emit() {
  int64_t batches = order.size() / kPairsPerBatch;
  for (int64_t slab = 0; slab < plan.slabs; ++slab) {
    boxInputs.clear();
    if (frame.enterSlab)
      boxInputs = frame.enterSlab(slab);
    for (RowState &state :
         MutableArrayRef<RowState>(rowStates).slice(2 * slab, 2))
      state.evaluator->setInputBoxes(boxInputs);
    chunk.reset();
    for (int64_t batchIndex = 0; batchIndex < batches; ++batchIndex) {
      // Halfway through the slab, before its next chunk goes out.
      if (heldSlab && batchIndex == batches / 2)
        releaseHeldSlab();
      emitBatch(slab, ArrayRef<int64_t>(order).slice(
                          batchIndex * kPairsPerBatch, kPairsPerBatch));
    }
    finishSlab(slab);
  }
  storePartials();
  if (heldSlab)
    releaseHeldSlab();
}

void RangeEmitter::emitBatch(int64_t slab, ArrayRef<int64_t> batch) {
  MutableArrayRef<RowState> rowGroup =
      MutableArrayRef<RowState>(rowStates).slice(2 * slab, 2);
  // A new chunk: the previous one goes out now, and the buffer is acquired
  // (waiting until that store has read it) only after this batch's values,
  // which overlap the wait.
  bool startsChunk =
      plan.stagingColumns && chunk != staging->chunkOf(batch.front());
  if (startsChunk) {
    if (chunk)
      staging->flush(slab, *chunk * plan.stagingColumns);
    chunk = staging->chunkOf(batch.front());
  }
  SmallVector<SmallVector<std::pair<Value, Value>>> batchPairs;
  for (RowState &state : rowGroup)
    for (int64_t j : batch) {
      SmallVector<std::pair<Value, Value>> &pairs = batchPairs.emplace_back();
      for (Value value : yield.getValues())
        if (!getPartialsSource(value))
          pairs.push_back({state.evaluator->at(value, 0, 8 * j),
                           state.evaluator->at(value, 0, 8 * j + 1)});
      for (auto &[partial, sum] : state.sums) {
        state.evaluator->at(partialSource(partial), 0, 8 * j);
        state.evaluator->at(partialSource(partial), 0, 8 * j + 1);
      }
      for (PartialSumRowsOp sums : blockSums) {
        state.evaluator->at(sums.getX(), 0, 8 * j);
        state.evaluator->at(sums.getX(), 0, 8 * j + 1);
      }
    }
  if (startsChunk)
    staging->acquire();
  auto pairs = batchPairs.begin();
  for (int64_t half = 0; half < 2; ++half)
    for (auto j = batch.begin(); j != batch.end(); ++j, ++pairs) {
      RowState &state = rowGroup[half];
      Value column =
          arith::AddIOp::create(b, loc, state.columnBase, index(8 * *j));
      // Every column is inside when the tiles end at the output's width.
      Value columnInside =
          plan.width % kTileN == 0
              ? arith::ConstantIntOp::create(b, loc, 1, 1).getResult()
              : arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, column,
                                      index(plan.width))
                    .getResult();
      addPartialTerms(state, *j, column, columnInside);
      if (!pairs->empty())
        writeResults(state, half, *j, *pairs, column, columnInside);
    }
  if (!blockSums.empty())
    for (int64_t j : batch)
      addSlabRows(rowGroup[0], rowGroup[1], j);
  if (frame.pinsPartialSums)
    for (RowState &state : rowGroup)
      for (auto &[partial, sum] : state.sums)
        sum = emitOpaqueCopy(b, loc, sum);
}

void RangeEmitter::addPartialTerms(RowState &state, int64_t j, Value column,
                                   Value columnInside) {
  for (auto &[partial, sum] : state.sums)
    for (int64_t s : {8 * j, 8 * j + 1}) {
      // A centered sum of squares first sums x for the block's mean.
      Value x = state.evaluator->at(partialSource(partial), 0, s);
      // Both columns of a pair are inside or outside (W is even).
      if (reducesToMax(partial)) {
        sum = arith::MaximumFOp::create(
            b, loc, sum,
            arith::SelectOp::create(b, loc, columnInside, x, lowest));
        continue;
      }
      Value selected = columnInside;
      if (auto gather = dyn_cast<PartialGatherOp>(partial))
        // The row's target column, if it is this one (the sum of the row's
        // terms is then that one element, or 0).
        selected = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::eq,
            arith::AddIOp::create(b, loc, column, index(s % 2)),
            state.evaluator->target(gather.getTargets()));
      auto reduce = dyn_cast<PartialReduceOp>(partial);
      Value term = reduce && reduce.getKind() == "sum_squares"
                       ? arith::MulFOp::create(b, loc, x, x).getResult()
                       : x;
      sum = arith::AddFOp::create(
          b, loc, sum, arith::SelectOp::create(b, loc, selected, term, zero));
    }
}

void RangeEmitter::writeResults(RowState &state, int64_t half, int64_t j,
                                ArrayRef<std::pair<Value, Value>> pairs,
                                Value column, Value columnInside) {
  SmallVector<std::tuple<Value, Value, Type>> direct;
  int64_t slot = 0;
  auto pair = pairs.begin();
  for (auto [value, result, output, staged, overInput] :
       llvm::zip_equal(yield.getValues(), gemm.getResults(), frame.outputs,
                       plan.stagedResults, plan.stagedOverInputs)) {
    if (getPartialsSource(value))
      continue;
    Type element = cast<RankedTensorType>(result.getType()).getElementType();
    Value packed =
        LLVM::PoisonOp::create(b, loc, VectorType::get({2}, element));
    for (auto [e, scalar] : llvm::enumerate(
             std::initializer_list<Value>{pair->first, pair->second})) {
      Value narrow =
          element.isF32()
              ? scalar
              : arith::TruncFOp::create(b, loc, element, scalar).getResult();
      packed = LLVM::InsertElementOp::create(
          b, loc, packed, narrow,
          arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(e))));
    }
    ++pair;
    if (staged)
      staging->write(slot++, half, j, packed);
    else if (overInput)
      // Where this thread read the input's pair (inputPair).
      LLVM::StoreOp::create(
          b, loc, packed,
          boxInputs[*overInput]->pairs.pointerInRun(b, loc, 8 * j, half), 4);
    else
      direct.push_back({packed, output, element});
  }
  if (direct.empty())
    return;
  // The others, predicated.
  Value inside = arith::AndIOp::create(b, loc, state.inside, columnInside);
  scf::IfOp::create(b, loc, inside, [&](OpBuilder &, Location) {
    Value position = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, state.row, index(plan.width)),
        column);
    for (auto [packed, output, element] : direct)
      LLVM::StoreOp::create(
          b, loc, packed, getElementAddress(b, loc, output, element, position),
          2 * element.getIntOrFloatBitWidth() / 8);
    scf::YieldOp::create(b, loc);
  });
}

void RangeEmitter::finishSlab(int64_t slab) {
  SmallVector<BoxesOverInput> overInputs;
  for (auto [map, input] :
       llvm::zip_equal(frame.staging.maps, plan.stagedOverInputs))
    if (input)
      overInputs.push_back({map, boxInputs[*input]->offset});
  if (chunk || !overInputs.empty())
    staging->flush(slab,
                   chunk ? std::optional(*chunk * plan.stagingColumns)
                         : std::nullopt,
                   overInputs);
  if (!blockSums.empty())
    storeBlockSums(rowStates[2 * slab]);
  if (!overInputs.empty()) {
    heldSlab = slab;
    if (!defersRelease)
      releaseHeldSlab();
  } else if (frame.leaveSlab) {
    frame.leaveSlab(slab);
  }
}

void RangeEmitter::releaseHeldSlab() {
  staging->awaitReads();
  if (frame.leaveSlab)
    frame.leaveSlab(*heldSlab);
  heldSlab.reset();
}

void RangeEmitter::storePartials() {
  Value firstLane = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                          frame.quad, index(0));
  for (RowState &state : rowStates)
    for (auto [value, result] :
         llvm::zip_equal(yield.getValues(), frame.outputs)) {
      Operation *partial = value.getDefiningOp();
      if (!isa_and_present<PartialReduceOp, PartialGatherOp>(partial))
        continue;
      auto reduce = dyn_cast<PartialReduceOp>(partial);
      StringRef kind = reduce ? reduce.getKind() : "sum";
      auto quadSum = [&](Value value) {
        return sumAcrossLanes(b, loc, value, {1, 2});
      };
      Value running = llvm::find_if(state.sums, [&](auto &entry) {
                        return entry.first == partial;
                      })->second;
      Value sum = reducesToMax(partial)
                      ? maxAcrossLanes(b, loc, running, {1, 2})
                      : quadSum(running);
      // A second pass over the row's values: the squared deviations from
      // the block's mean, or exp(x - max) for the log-sum-exp.
      auto sumRowTerms = [&](function_ref<Value(Value)> term) {
        Value total = zero;
        for (int64_t j = 0; j < kOffsetsPerRow / 2; ++j) {
          Value column =
              arith::AddIOp::create(b, loc, state.columnBase, index(8 * j));
          Value columnInside = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, column, index(plan.width));
          for (int64_t s : {8 * j, 8 * j + 1})
            total = arith::AddFOp::create(
                b, loc, total,
                arith::SelectOp::create(
                    b, loc, columnInside,
                    term(state.evaluator->at(partialSource(partial), 0, s)),
                    zero));
        }
        return quadSum(total);
      };
      if (kind == "lse") {
        // max + log Σ exp(x − max); a tile has at least one column inside,
        // so the maximum is finite for finite x. Approximate exp and log,
        // as the epilogue's other transcendentals: the accurate ones left
        // the loss's error unchanged (bench/NOTES.md §31).
        auto approximate = arith::FastMathFlagsAttr::get(
            b.getContext(), arith::FastMathFlags::afn);
        Value max = sum;
        Value exps = sumRowTerms([&](Value x) -> Value {
          return math::ExpOp::create(
              b, loc, arith::SubFOp::create(b, loc, x, max), approximate);
        });
        sum = arith::AddFOp::create(
            b, loc, max, math::LogOp::create(b, loc, exps, approximate));
      }
      if (kind == "centered_sum_squares") {
        // The block's mean over its columns inside the tensor, then a
        // second pass over the row's values for the squared deviations.
        Value columns = arith::MinUIOp::create(
            b, loc, index(kTileN),
            arith::SubIOp::create(b, loc, index(plan.width), state.n0));
        Value count = arith::UIToFPOp::create(
            b, loc, f32,
            arith::IndexCastOp::create(b, loc, b.getI32Type(), columns));
        Value mean = arith::DivFOp::create(b, loc, sum, count);
        sum = sumRowTerms([&](Value x) -> Value {
          Value d = arith::SubFOp::create(b, loc, x, mean);
          return arith::MulFOp::create(b, loc, d, d);
        });
      }
      Value output = result;
      Value store = arith::AndIOp::create(b, loc, state.inside, firstLane);
      scf::IfOp::create(b, loc, store, [&](OpBuilder &, Location) {
        Value position = arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(b, loc, state.row, index(plan.nTiles())),
            state.tile);
        LLVM::StoreOp::create(b, loc, sum,
                              getElementAddress(b, loc, output, f32, position));
        scf::YieldOp::create(b, loc);
      });
    }
}

void mlir::coda::emitEpilogue(OpBuilder &b, Location loc, GemmOp gemm,
                              const GemmKernelPlan &plan,
                              const EpilogueFrame &frame) {
  if (plan.ranges.size() == 1)
    return RangeEmitter(b, loc, gemm, plan, frame, plan.ranges.front()).emit();
  // One copy of the epilogue per range, chosen by the tile's first column.
  for (const EpilogueRange &range : plan.ranges) {
    Value start = arith::ConstantIndexOp::create(b, loc, range.start);
    Value end = arith::ConstantIndexOp::create(b, loc, range.end);
    Value inRange = arith::AndIOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, frame.n0,
                              start),
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, frame.n0,
                              end));
    scf::IfOp::create(b, loc, inRange, [&](OpBuilder &, Location) {
      RangeEmitter(b, loc, gemm, plan, frame, range).emit();
      scf::YieldOp::create(b, loc);
    });
  }
}
