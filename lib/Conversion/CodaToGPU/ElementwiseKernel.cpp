//===- ElementwiseKernel.cpp - standalone elementwise kernels -------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The tile-local maps that no GEMM takes into its epilogue (the backward's
// residual sums, a recomputed SwiGLU, the inverse RoPE of a cotangent and
// the slices and concat around it): one CTA per output row, its threads
// reading and writing 16 consecutive bytes each per step, so every access
// is a coalesced vector access. A concat's pieces are loops of their own
// over the piece's columns. A row-sum map is a warp per row instead, its
// lanes summing the same groups and then adding their sums across the warp.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseKernel.h"

#include "ApproximateTanh.h"
#include "KernelFunction.h"
#include "LaneSums.h"
#include "VectorAccess.h"
#include "coda/Dialect/Coda/Utils/ScalarMath.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::coda;

/// Whether `op` moves or rotates columns of one row: a slice, a concat, or
/// a "half" RoPE (whose partners are head_dim / 2 columns apart).
static bool isColumnMap(Operation *op) {
  if (auto rope = dyn_cast<RoPEOp>(op))
    return rope.getStyle() == "half";
  return isa<SliceOp, ConcatOp>(op);
}

static bool isFloatTensor(Type type, int64_t minRank) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || tensor.getRank() < minRank || tensor.getRank() > 2)
    return false;
  Type element = tensor.getElementType();
  return element.isBF16() || element.isF16() || element.isF32();
}

bool mlir::coda::isElementwiseKernelOp(Operation *op) {
  if (!(hasScalarForm(op) || isColumnMap(op) || isa<MapOp>(op)) ||
      isa<GemmOp, MapOp>(op->getParentOp()) || op->getNumResults() != 1 ||
      cast<ShapedType>(op->getResult(0).getType()).getRank() != 2 ||
      !isFloatTensor(op->getResult(0).getType(), 2))
    return false;
  return llvm::all_of(op->getOperandTypes(),
                      [](Type type) { return isFloatTensor(type, 1); });
}

LogicalResult mlir::coda::checkElementwiseKernelSupport(Operation *op) {
  auto map = dyn_cast<MapOp>(op);
  if (!map)
    return success();
  Value root = map.getBlock().getTerminator()->getOperand(0);
  for (Operation &inner : map.getBlock().without_terminator()) {
    if (!hasScalarForm(&inner) && !isColumnMap(&inner))
      return inner.emitError("a map's kernel evaluates elementwise maps, "
                             "slices, concats and \"half\" RoPE, not '")
             << inner.getName() << "'";
    if (isa<ConcatOp>(inner) && inner.getResult(0) != root)
      return inner.emitError("a map's kernel picks a concat's piece by its "
                             "column range, so a concat must be the value it "
                             "yields");
  }
  return success();
}

namespace {
/// The kernel of one elementwise op or map: the values of the program at a
/// row and a group of `lanes` columns, from loads of the kernel's operands.
class RowProgram {
public:
  RowProgram(OpBuilder &b, Location loc, Operation *op, ValueRange operandArgs,
             Value row)
      : b(b), loc(loc), row(row) {
    // A map's block arguments stand for its operands; a single op's
    // operands for themselves.
    auto map = dyn_cast<MapOp>(op);
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      Value leaf = map ? map.getBlock().getArgument(i) : operand;
      leaves[leaf] = {operandArgs[i], getElement(operand)};
    }
    root =
        map ? map.getBlock().getTerminator()->getOperand(0) : op->getResult(0);
    lanes = chooseLanes(op);
  }

  Value getRoot() const { return root; }
  int64_t getLanes() const { return lanes; }

  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  /// Element (row, column) of a row-major value of `width` columns.
  Value at(int64_t width, Value column) {
    return arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, index(width)), column);
  }

  /// The lanes of `value` at `column`, in f32; a concat's piece `piece`
  /// (starting at `start`) when `value` is the root concat.
  SmallVector<Value> evaluate(Value value, Value column);
  SmallVector<Value> evaluatePiece(ConcatOp concat, unsigned piece,
                                   int64_t start, Value column) {
    Value local = arith::SubIOp::create(b, loc, column, index(start));
    return evaluate(concat.getInputs()[piece], local);
  }

  static int64_t getWidth(Value value) {
    auto type = cast<RankedTensorType>(value.getType());
    return type.getDimSize(type.getRank() - 1);
  }
  static Type getElement(Value value) {
    return cast<RankedTensorType>(value.getType()).getElementType();
  }

private:
  /// 16 bytes of the widest element stored or loaded per thread and step,
  /// when every width, slice offset and RoPE half head of the program is a
  /// whole number of such groups (the groups then stay 16-byte aligned);
  /// else one element.
  int64_t chooseLanes(Operation *op);

  OpBuilder &b;
  Location loc;
  Value row, root;
  int64_t lanes = 1;
  /// The kernel argument and element type of each value loaded from memory.
  llvm::DenseMap<Value, std::pair<Value, Type>> leaves;
};
} // namespace

int64_t RowProgram::chooseLanes(Operation *op) {
  // A row-sum map stores one f32 per row, not groups of its result.
  auto map = dyn_cast<MapOp>(op);
  bool rowSum = map && map.getRowSum();
  int64_t widest =
      rowSum ? 16 : getElement(op->getResult(0)).getIntOrFloatBitWidth();
  for (Value operand : op->getOperands())
    widest =
        std::max<int64_t>(widest, getElement(operand).getIntOrFloatBitWidth());
  int64_t candidate = 128 / widest;
  SmallVector<int64_t> sizes;
  SmallVector<Operation *> ops = {op};
  if (map)
    ops = llvm::map_to_vector(map.getBlock().without_terminator(),
                              [](Operation &inner) { return &inner; });
  for (Operation *inner : ops) {
    for (Value value :
         llvm::concat<Value>(inner->getOperands(), inner->getResults()))
      if (getWidth(value) != 1 && !(rowSum && value == op->getResult(0)))
        sizes.push_back(getWidth(value));
    if (auto slice = dyn_cast<SliceOp>(inner))
      sizes.push_back(slice.getOffset());
    if (auto rope = dyn_cast<RoPEOp>(inner))
      sizes.push_back(rope.getHeadDim() / 2);
  }
  if (llvm::any_of(sizes, [&](int64_t size) { return size % candidate; }))
    return 1;
  return candidate;
}

SmallVector<Value> RowProgram::evaluate(Value value, Value column) {
  auto type = cast<RankedTensorType>(value.getType());
  // A column [M, 1] is the row's one value in every lane.
  bool perRow = type.getRank() == 2 && type.getDimSize(1) == 1;
  if (auto it = leaves.find(value); it != leaves.end()) {
    auto [base, element] = it->second;
    Value position = type.getRank() == 1 ? column
                     : perRow            ? row
                                         : at(getWidth(value), column);
    if (!perRow)
      return loadWidened(b, loc, base, element, position, lanes);
    return SmallVector<Value>(
        lanes, loadWidened(b, loc, base, element, position, 1).front());
  }
  Operation *op = value.getDefiningOp();
  if (auto slice = dyn_cast<SliceOp>(op))
    return evaluate(
        slice.getX(),
        arith::AddIOp::create(b, loc, column, index(slice.getOffset())));
  if (auto rope = dyn_cast<RoPEOp>(op)) {
    // First half of a head: x₁ cos − x₂ sin, its partner half a head on;
    // second half: x₂ cos + x₁ sin, its partner half a head back.
    int64_t half = rope.getHeadDim() / 2;
    Value withinHead =
        arith::RemUIOp::create(b, loc, column, index(rope.getHeadDim()));
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        withinHead, index(half));
    Value partner = arith::SelectOp::create(
        b, loc, first, arith::AddIOp::create(b, loc, column, index(half)),
        arith::SubIOp::create(b, loc, column, index(half)));
    SmallVector<Value> x = evaluate(rope.getX(), column);
    SmallVector<Value> other = evaluate(rope.getX(), partner);
    Value angle = arith::RemUIOp::create(b, loc, column, index(half));
    SmallVector<Value> cos = evaluate(rope.getCos(), angle);
    SmallVector<Value> sin = evaluate(rope.getSin(), angle);
    SmallVector<Value> values;
    for (int64_t lane = 0; lane < lanes; ++lane) {
      Value signedOther = arith::SelectOp::create(
          b, loc, first, arith::NegFOp::create(b, loc, other[lane]),
          other[lane]);
      values.push_back(arith::AddFOp::create(
          b, loc, arith::MulFOp::create(b, loc, x[lane], cos[lane]),
          arith::MulFOp::create(b, loc, signedOther, sin[lane])));
    }
    return values;
  }
  // An op with a scalar form, lane by lane.
  SmallVector<SmallVector<Value>> operands;
  for (Value operand : op->getOperands())
    operands.push_back(evaluate(operand, column));
  SmallVector<Value> values;
  for (int64_t lane = 0; lane < lanes; ++lane) {
    SmallVector<Value> laneArgs;
    for (SmallVector<Value> &laneValues : operands)
      laneArgs.push_back(laneValues[lane]);
    values.push_back(
        buildElementwiseScalar(b, loc, op, laneArgs, buildApproximateTanh));
  }
  return values;
}

/// The most values a thread evaluates, over unrolled steps, before their
/// stores or sums (bench/NOTES.md §72: 96 for the backward's z·dz row sum);
/// more would be held in registers that spill.
constexpr int64_t kUnrolledValues = 128;

/// Loops over the columns of `program`'s root that a thread computes, from
/// `first` in steps of `step` (one loop per piece of a root concat), with
/// `body(values, column, iterArgs)` giving the next iteration's values of
/// the loop-carried `init`; returns their final values. A piece that every
/// thread crosses the same number of times is unrolled when its steps
/// evaluate at most kUnrolledValues values, and consecutive unrolled pieces
/// have their steps evaluated before the first body runs, as many as that
/// bound allows, so that their loads are in flight together.
static SmallVector<Value> emitColumnLoops(
    OpBuilder &b, Location loc, RowProgram &program, Value first, int64_t step,
    ValueRange init,
    function_ref<SmallVector<Value>(ArrayRef<Value>, Value, ValueRange)> body) {
  // The column ranges computed by loops of their own: a root concat's
  // pieces, else the whole row.
  auto concat = program.getRoot().getDefiningOp<ConcatOp>();
  SmallVector<std::pair<int64_t, int64_t>> pieces;
  if (concat) {
    int64_t start = 0;
    for (Value input : concat.getInputs()) {
      pieces.push_back({start, start + RowProgram::getWidth(input)});
      start += RowProgram::getWidth(input);
    }
  } else {
    pieces.push_back({0, RowProgram::getWidth(program.getRoot())});
  }
  SmallVector<Value> carried(init);
  // The unrolled steps evaluated and not yet given to `body`: every step's
  // values come before the first body, whose stores could alias the next
  // step's loads, which would then wait for them.
  SmallVector<std::pair<SmallVector<Value>, Value>> steps;
  int64_t pending = 0;
  auto runBodies = [&] {
    for (auto &[values, column] : steps)
      carried = body(values, column, carried);
    steps.clear();
    pending = 0;
  };
  for (auto [i, range] : llvm::enumerate(pieces)) {
    unsigned piece = i;
    int64_t start = range.first;
    int64_t width = range.second - start;
    auto evaluate = [&](Value column) {
      return concat ? program.evaluatePiece(concat, piece, start, column)
                    : program.evaluate(program.getRoot(), column);
    };
    int64_t pieceValues = width / step * program.getLanes();
    if (width % step == 0 && pieceValues <= kUnrolledValues) {
      if (pending + pieceValues > kUnrolledValues)
        runBodies();
      pending += pieceValues;
      for (int64_t offset = start; offset < range.second; offset += step) {
        Value column =
            arith::AddIOp::create(b, loc, first, program.index(offset));
        steps.emplace_back(evaluate(column), column);
      }
      continue;
    }
    runBodies();
    auto loop = scf::ForOp::create(
        b, loc, arith::AddIOp::create(b, loc, first, program.index(start)),
        program.index(range.second), program.index(step), carried,
        [&](OpBuilder &, Location, Value column, ValueRange iterArgs) {
          scf::YieldOp::create(b, loc,
                               body(evaluate(column), column, iterArgs));
        });
    carried = loop.getResults();
  }
  runBodies();
  return carried;
}

/// A CTA per row, each thread storing groups of `lanes` columns.
static void emitStoringKernel(OpBuilder &b, Location loc, Operation *op,
                              ValueRange args) {
  Value rows = arith::IndexCastOp::create(b, loc, b.getIndexType(), args[0]);
  Value row = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rows);
  RowProgram program(b, loc, op, args.slice(1, op->getNumOperands()), row);
  Value result = op->getResult(0);
  int64_t columns = RowProgram::getWidth(result);
  int64_t lanes = program.getLanes();
  scf::IfOp::create(b, loc, inside, [&](OpBuilder &, Location) {
    Value first = arith::MulIOp::create(
        b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x),
        program.index(lanes));
    emitColumnLoops(b, loc, program, first, kElementwiseThreads * lanes,
                    ValueRange(),
                    [&](ArrayRef<Value> values, Value column, ValueRange) {
                      storeNarrowed(b, loc, values, args.back(),
                                    RowProgram::getElement(result),
                                    program.at(columns, column));
                      return SmallVector<Value>();
                    });
    scf::YieldOp::create(b, loc);
  });
}

/// A warp per row, each lane summing its groups of `lanes` columns; the
/// lanes' sums are added across the warp and lane 0 stores the row's.
static void emitRowSumKernel(OpBuilder &b, Location loc, MapOp map,
                             ValueRange args) {
  Value rows = arith::IndexCastOp::create(b, loc, b.getIndexType(), args[0]);
  Value lane, row;
  std::tie(lane, row) = getWarpRow(b, loc, kRowSumRowsPerBlock);
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rows);
  RowProgram program(b, loc, map, args.slice(1, map->getNumOperands()), row);
  int64_t lanes = program.getLanes();
  scf::IfOp::create(b, loc, inside, [&](OpBuilder &, Location) {
    Value first = arith::MulIOp::create(b, loc, lane, program.index(lanes));
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    Value sum =
        emitColumnLoops(b, loc, program, first, 32 * lanes, zero,
                        [&](ArrayRef<Value> values, Value, ValueRange partial) {
                          Value next = partial.front();
                          for (Value value : values)
                            next = arith::AddFOp::create(b, loc, next, value);
                          return SmallVector<Value>{next};
                        })
            .front();
    sum = sumAcrossLanes(b, loc, sum, {16, 8, 4, 2, 1});
    Value leader = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                         program.index(0));
    scf::IfOp::create(b, loc, leader, [&](OpBuilder &, Location) {
      LLVM::StoreOp::create(
          b, loc, sum,
          getElementAddress(b, loc, args.back(), b.getF32Type(), row));
      scf::YieldOp::create(b, loc);
    });
    scf::YieldOp::create(b, loc);
  });
}

void mlir::coda::emitElementwiseKernel(OpBuilder &b, Operation *op,
                                       StringRef name) {
  Location loc = op->getLoc();
  OpBuilder::InsertionGuard guard(b);
  auto map = dyn_cast<MapOp>(op);
  bool rowSum = map && map.getRowSum();
  auto kernel = createRowCountKernel(b, loc, name, op->getNumOperands() + 1,
                                     rowSum ? 32 * kRowSumRowsPerBlock
                                            : kElementwiseThreads);
  if (rowSum)
    emitRowSumKernel(b, loc, map, kernel.getArguments());
  else
    emitStoringKernel(b, loc, op, kernel.getArguments());
  gpu::ReturnOp::create(b, loc);
}
