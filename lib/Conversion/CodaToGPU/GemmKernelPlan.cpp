//===- GemmKernelPlan.cpp - the shape of one generated GEMM kernel --------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GemmKernelPlan.h"

#include "coda/Dialect/Coda/Utils/ScalarMath.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::coda;

/// The deepest ring the automatic choice builds.
constexpr int64_t kMaxStages = 8;
/// The fewest slots a ring keeps when it gives one to staging, or room to
/// the epilogue warpgroup's input buffer.
constexpr int64_t kMinStagesForStaging = 3;

std::optional<GemmSchedule> mlir::coda::parseGemmSchedule(StringRef name) {
  if (name == "cooperative")
    return GemmSchedule::Cooperative;
  if (name == "pingpong")
    return GemmSchedule::PingPong;
  if (name == "epilogue-warpgroup")
    return GemmSchedule::EpilogueWarpgroup;
  return std::nullopt;
}

StringRef mlir::coda::stringifyGemmSchedule(GemmSchedule schedule) {
  switch (schedule) {
  case GemmSchedule::Cooperative:
    return "cooperative";
  case GemmSchedule::PingPong:
    return "pingpong";
  case GemmSchedule::EpilogueWarpgroup:
    return "epilogue-warpgroup";
  }
  llvm_unreachable("unknown GEMM schedule");
}

FailureOr<std::optional<GemmSchedule>>
mlir::coda::parseScheduleOptions(Operation *anchor, StringRef schedule,
                                 int64_t stages, int64_t groupRows) {
  if (stages == 1)
    return mlir::emitError(anchor->getLoc(),
                           "stages = 1: the mainloop's ring needs at least 2 "
                           "slots to overlap loads with wgmma");
  if (groupRows < 1)
    return mlir::emitError(anchor->getLoc(), "group-rows = ")
           << groupRows << ": a tile group holds at least one row tile";
  if (schedule == "auto")
    return std::optional<GemmSchedule>();
  std::optional<GemmSchedule> parsed = parseGemmSchedule(schedule);
  if (!parsed)
    return mlir::emitError(anchor->getLoc(), "schedule = \"")
           << schedule
           << "\" is not \"auto\", \"cooperative\", \"pingpong\" or "
              "\"epilogue-warpgroup\"";
  return parsed;
}

const EpilogueRange &GemmKernelPlan::rangeOf(int64_t column) const {
  for (const EpilogueRange &range : ranges)
    if (column < range.end)
      return range;
  return ranges.back();
}

int64_t mlir::coda::getOutputWidth(GemmOp gemm) {
  auto yield = cast<YieldOp>(gemm.getBody().getTerminator());
  for (Value value : yield.getValues())
    if (!getPartialsSource(value))
      return getWidth(value);
  for (Value value : yield.getValues())
    return getWidth(getPartialsSource(value));
  return 0;
}

namespace {
/// Follows the epilogue from the output's columns to the accumulator's: the
/// first walk finds where concat pieces cut the output, the second the
/// accumulator shifts within one range. Columns are output columns
/// [lo, hi), shifted by `delta` in the value at hand.
class ColumnWalk {
public:
  ColumnWalk(GemmOp gemm) : gemm(gemm) {}

  LogicalResult walk(Value value, int64_t delta, int64_t lo, int64_t hi);

  SmallVector<std::pair<int64_t, Operation *>> cuts;
  llvm::SmallSetVector<int64_t, 4> bases;
  /// Per epilogue input (region argument), the shifts it is read at.
  llvm::DenseMap<BlockArgument, llvm::SmallSetVector<int64_t, 2>> inputShifts;

private:
  GemmOp gemm;
  llvm::DenseSet<std::tuple<Value, int64_t, int64_t, int64_t>> visited;
};
} // namespace

LogicalResult ColumnWalk::walk(Value value, int64_t delta, int64_t lo,
                               int64_t hi) {
  if (isPerRow(value)) {
    delta = 0;
    lo = 0;
    hi = 1;
  }
  if (!visited.insert({value, delta, lo, hi}).second)
    return success();
  if (value == gemm.getAccumulator()) {
    bases.insert(delta);
    return success();
  }
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    inputShifts[argument].insert(delta);
    return success();
  }

  Operation *op = value.getDefiningOp();
  // Partials are results of their own: nothing in the epilogue reads them.
  auto storedOnly = [&]() -> LogicalResult {
    if (llvm::all_of(op->getUsers(), llvm::IsaPred<YieldOp>))
      return success();
    return op->emitError("the partials are used inside the epilogue; the "
                         "kernel generator only stores them");
  };
  if (auto slice = dyn_cast<SliceOp>(op)) {
    if (slice.getOffset() % 2 != 0 || slice.getSize() % 2 != 0)
      return slice.emitError("the generator reads and writes pairs of "
                             "adjacent columns, so slices start and end on "
                             "even columns; this one is [")
             << slice.getOffset() << ", " << slice.getOffset() + slice.getSize()
             << ")";
    return walk(slice.getX(), delta + slice.getOffset(), lo, hi);
  }
  if (auto concat = dyn_cast<ConcatOp>(op)) {
    int64_t start = 0;
    for (Value piece : concat.getInputs()) {
      int64_t end = start + getWidth(piece);
      int64_t pieceLo = std::max(lo, start - delta);
      int64_t pieceHi = std::min(hi, end - delta);
      if (pieceLo < pieceHi) {
        if (pieceLo > lo)
          cuts.push_back({pieceLo, op});
        if (failed(walk(piece, delta - start, pieceLo, pieceHi)))
          return failure();
      }
      start = end;
    }
    return success();
  }
  if (auto rope = dyn_cast<RoPEOp>(op)) {
    int64_t headDim = rope.getHeadDim();
    if (kTileN % headDim != 0)
      return rope.emitError("head_dim = ")
             << headDim << " does not divide the " << kTileN
             << "-column tile, so a head's pairs would span two CTAs";
    if (rope.getStyle() == "half" && (headDim / 2) % 8 != 0)
      return rope.emitError("with head_dim = ")
             << headDim
             << ", the \"half\" partners at head_dim / 2 = " << headDim / 2
             << " columns are not held by the same thread; the generator "
                "needs head_dim / 2 to be a multiple of 8";
    if (delta % headDim != 0)
      return rope.emitError("the rotated columns start at column ")
             << delta
             << " of the tile's columns, not on a head boundary (head_dim = "
             << headDim << ")";
    for (Value table : {rope.getCos(), rope.getSin()})
      if (!isa<BlockArgument>(table))
        return rope.emitError("the cosines and sines of a coda.rope in an "
                              "epilogue must be epilogue inputs");
    return walk(rope.getX(), delta, lo, hi);
  }
  // Partials along the rows come in blocks of the kernel's N-tile (a
  // gather's targets are an epilogue input: the body makes no integers).
  auto walkRowPartials = [&](auto partial, StringRef what) -> LogicalResult {
    if (partial.getTileN() && *partial.getTileN() != uint64_t(kTileN))
      return op->emitError("the kernel generator ")
             << what << " tiles of " << kTileN
             << " columns, but tile_n = " << *partial.getTileN();
    if (failed(storedOnly()))
      return failure();
    return walk(partial.getX(), delta, lo, hi);
  };
  if (auto partial = dyn_cast<PartialReduceOp>(op))
    return walkRowPartials(partial, "reduces");
  if (auto gather = dyn_cast<PartialGatherOp>(op))
    return walkRowPartials(gather, "gathers in");
  if (auto sums = dyn_cast<PartialSumRowsOp>(op)) {
    if (sums.getBlockRows() != uint64_t(PartialSumRowsOp::kEpilogueBlockRows))
      return op->emitError("the kernel generator sums blocks of ")
             << PartialSumRowsOp::kEpilogueBlockRows
             << " rows (a warp's rows of a wgmma slab), but block_rows = "
             << sums.getBlockRows();
    if (failed(storedOnly()))
      return failure();
    return walk(sums.getX(), delta, lo, hi);
  }
  if (auto grad = dyn_cast<SoftmaxTargetGradOp>(op)) {
    // The row's target is an epilogue input read once, as a gather's (the
    // body makes no integers).
    for (Value operand : {grad.getLogits(), grad.getLse(), grad.getWeights()})
      if (failed(walk(operand, delta, lo, hi)))
        return failure();
    return success();
  }
  if (!hasScalarForm(op))
    return op->emitError("'")
           << op->getName()
           << "' in an epilogue is not supported by the kernel generator yet";
  for (Value operand : op->getOperands())
    if (failed(walk(operand, delta, lo, hi)))
      return failure();
  return success();
}

/// Checks what the plan does not decide: operand layouts and types, the
/// results' shapes.
static LogicalResult checkGemmOperands(GemmOp gemm, int64_t width) {
  if (gemm.getALayout() == "km" && gemm.getBLayout() != "kn")
    return gemm.emitError("a GEMM that reads a as [K, M] (a_layout = \"km\") "
                          "needs weights read as [K, N] (b_layout = \"kn\"), "
                          "both reduced over their rows; this one has \"")
           << gemm.getBLayout() << "\"";
  if (gemm.getALayout() == "km" && gemm.getNumProducts() > 1)
    return gemm.emitError("the kernel generator sums ")
           << gemm.getNumProducts()
           << " products only over static reductions (a_layout = \"mk\"); "
              "this one reduces over the rows";
  if (gemm.getAccumulate())
    return gemm.emitError("accumulating results into inputs is not supported "
                          "by the kernel generator yet");
  Type element = gemm.getFirstA().getType().getElementType();
  if (!element.isBF16() && !element.isF16())
    return gemm.emitError("the kernel generator takes bf16 or f16 operands, "
                          "got ")
           << element;
  auto yield = cast<YieldOp>(gemm.getBody().getTerminator());
  for (auto [index, result] : llvm::enumerate(gemm.getResults())) {
    if (getPartialsSource(yield.getValues()[index]))
      continue;
    auto type = cast<RankedTensorType>(result.getType());
    if (type.getRank() != 2 || type.getDimSize(1) != width)
      return gemm.emitError("result #")
             << index << " of type " << type << " is not an [M, " << width
             << "] tile or the partials of a row reduction; one kernel "
                "covers one column range";
  }
  for (Value value : yield.getValues())
    if (Value source = getPartialsSource(value))
      if (getWidth(source) != width)
        return value.getDefiningOp()->emitError("the partials reduce ")
               << getWidth(source)
               << " columns, but the kernel's tiles cover the " << width
               << " columns of its results";
  return success();
}

/// Whether the epilogue finishes the first 64 columns of a row before the
/// last 64: a "half" RoPE visits partners head_dim / 2 columns apart
/// together, which crosses the middle when head_dim / 2 > 32.
static bool visitsColumnHalvesInOrder(GemmOp gemm) {
  bool inOrder = true;
  gemm.getBody().walk([&](RoPEOp rope) {
    if (rope.getStyle() == "half" && 64 % rope.getHeadDim() != 0)
      inOrder = false;
  });
  return inOrder;
}

/// Whether a TMA box of 64 x 64 elements can move `type`'s tiles: 16-bit
/// elements, rows of whole 16-byte units (TMA's stride rule).
static bool isSixteenBitTmaTile(RankedTensorType type) {
  return type.getRank() == 2 && type.getElementTypeBitWidth() == 16 &&
         type.getDimSize(1) % 8 == 0;
}

/// Whether each thread reads an input's pair at a column no later than the
/// batch that writes the results' pair there, so that a result may be
/// staged over the input: a RoPE reads partners head_dim / 2 columns away.
static bool readsInputsBeforeWriting(GemmOp gemm) {
  return !gemm.getBody()
              .walk([](RoPEOp) { return WalkResult::interrupt(); })
              .wasInterrupted();
}

/// Chooses the results that go out through shared memory and TMA: 16-bit
/// tiles whose rows are whole 16-byte units (TMA's stride rule). With
/// `overInputBoxes`, the first of them are staged in the boxes of the
/// inputs loaded through the ring, one each, and the rest take the staging
/// buffer in chunks of 64 columns; otherwise all take the buffer, as many
/// as fit in the shared memory the ring leaves, in chunks of 128 columns,
/// else 64 (more results in 64 win over fewer in 128). The
/// others are stored from registers. Returns whether every candidate is
/// staged.
static bool planOutputStaging(GemmOp gemm, GemmKernelPlan &plan,
                              bool overInputBoxes) {
  auto yield = cast<YieldOp>(gemm.getBody().getTerminator());
  SmallVector<unsigned> candidates;
  for (auto [index, value, result] :
       llvm::enumerate(yield.getValues(), gemm.getResults())) {
    auto type = cast<RankedTensorType>(result.getType());
    if (!getPartialsSource(value) && isSixteenBitTmaTile(type))
      candidates.push_back(index);
  }
  plan.stagedResults.assign(gemm.getNumResults(), false);
  plan.stagedOverInputs.assign(gemm.getNumResults(), std::nullopt);
  plan.stagingColumns = 0;
  ArrayRef<unsigned> rest = candidates;
  if (overInputBoxes)
    for (auto [input, loaded] : llvm::enumerate(plan.boxInputs))
      if (loaded && !rest.empty()) {
        plan.stagedOverInputs[rest.front()] = input;
        rest = rest.drop_front();
      }
  int64_t room = kMaxSharedBytes - plan.sharedBytes();
  // Beside results staged over inputs, the buffer's chunks are 64 columns
  // when they can be: a chunk's meeting in the middle of each slab keeps
  // ptxas from reading the whole slab's inputs ahead (the dgrad with
  // SwiGLU's gradient spilled 1168 bytes with one 128-column chunk).
  SmallVector<int64_t, 2> chunks;
  if (!overInputBoxes || !visitsColumnHalvesInOrder(gemm))
    chunks.push_back(kTileN);
  if (visitsColumnHalvesInOrder(gemm))
    chunks.push_back(64);
  int64_t staged = 0;
  for (int64_t columns : chunks) {
    // A 64-row slab of the chunk per consumer and staged result.
    int64_t count = std::min<int64_t>(
        rest.size(), room / (plan.consumers * 64 * columns * 2));
    if (count > staged) {
      staged = count;
      plan.stagingColumns = columns;
    }
  }
  for (unsigned index : rest.take_front(staged))
    plan.stagedResults[index] = true;
  return staged == static_cast<int64_t>(rest.size());
}

/// Chooses the epilogue inputs that arrive by TMA: 16-bit [M, W] tiles
/// read only at the output's own columns (shift 0, so a tile's 128 columns
/// of the input are its box), with rows of whole 16-byte units (TMA's
/// stride rule). The cooperative schedule loads at most one ring of them
/// through the ring, whose steps fill a slot's A box, which holds both
/// consumers' rows of one slab only in 256-row tiles. The epilogue
/// warpgroup loads them into its own buffer, planned before the ring: as
/// many as leave room for the ring's pinned stages, or else for
/// kMinStagesForStaging; it reads the others from global memory.
static void planBoxInputs(GemmOp gemm, const ColumnWalk &walk,
                          GemmKernelPlan &plan) {
  plan.boxInputs.assign(gemm.getInputs().size(), false);
  bool throughRing = plan.schedule == GemmSchedule::Cooperative;
  if (!(throughRing && plan.slabs == 2) && !plan.hasEpilogueWarpgroup())
    return;
  int64_t limit = plan.stages;
  if (!throughRing) {
    // The shared memory of that ring without the buffer (none taken yet).
    GemmKernelPlan ring = plan;
    ring.stages = std::max(plan.stages, kMinStagesForStaging);
    limit = (kMaxSharedBytes - ring.sharedBytes()) / kInputSlabBytes;
  }
  int64_t taken = 0;
  for (auto [index, input] : llvm::enumerate(gemm.getInputs())) {
    auto type = cast<RankedTensorType>(input.getType());
    auto shifts = walk.inputShifts.find(gemm.getBody().getArgument(index + 1));
    if (!isSixteenBitTmaTile(type) || !isa<FloatType>(type.getElementType()) ||
        type.getDimSize(1) != plan.width || shifts == walk.inputShifts.end() ||
        shifts->second.size() != 1 || shifts->second.front() != 0 ||
        taken >= limit)
      continue;
    plan.boxInputs[index] = true;
    ++taken;
  }
}

/// The share of `units` units that keeps kPlannedMultiprocessors SMs busy
/// over the waves they take.
static double getWaveFill(int64_t units) {
  int64_t waves = llvm::divideCeil(units, kPlannedMultiprocessors);
  return double(units) / double(waves * kPlannedMultiprocessors);
}

/// Whether `gemm`'s epilogue yields its accumulator and nothing else.
static bool yieldsOnlyAccumulator(GemmOp gemm) {
  auto yield = cast<YieldOp>(gemm.getBody().getTerminator());
  return llvm::all_of(yield.getValues(), [&](Value value) {
    return value == gemm.getAccumulator();
  });
}

/// Chooses the consumer warpgroups of a CTA: as `choice.consumers` pins
/// them (two, or three in the cooperative schedule of a weight gradient,
/// whose A arrives in 64-column boxes: TMA's boxes have at most 256 rows,
/// a 384-row tile's A box of another GEMM more), else, unless
/// `choice.splits` is pinned, three for a weight gradient whose epilogue
/// yields only the accumulator when its 384-row tiles fill 90% of every
/// wave and its 256-row tiles do not, else two. Unsplit, such a gradient
/// saves the split's meeting, which stores and reloads every tile's
/// partials (bench/NOTES.md §90); the three consumers hold 160 registers
/// each, which a fused epilogue may not fit.
static LogicalResult planConsumers(GemmOp gemm, const GemmPlanChoice &choice,
                                   GemmKernelPlan &plan) {
  bool cooperative = plan.schedule == GemmSchedule::Cooperative;
  if (std::optional<int64_t> consumers = choice.consumers) {
    bool canHaveThree = cooperative && plan.reducesRows;
    if (*consumers != kDefaultConsumers &&
        !(canHaveThree && *consumers == kMaxConsumers))
      return gemm.emitError("coda.plan consumers = ")
             << *consumers << "; the generator's CTAs have "
             << (canHaveThree ? "2 or 3" : "2")
             << " consumer warpgroups here (3 only in the cooperative "
                "schedule of a weight gradient, a_layout = \"km\")";
    plan.consumers = *consumers;
    return success();
  }
  if (!cooperative || !plan.reducesRows || choice.splits ||
      !yieldsOnlyAccumulator(gemm))
    return success();
  GemmKernelPlan taller = plan;
  taller.consumers = kMaxConsumers;
  if (getWaveFill(plan.staticTiles()) < 0.9 &&
      getWaveFill(taller.staticTiles()) >= 0.9)
    plan.consumers = kMaxConsumers;
  return success();
}

/// Chooses how many parts a split reduction is cut into: `pinned`, or for a
/// weight gradient the fewest of 1, 2 and 4 whose units fill 90% of every
/// wave (else the fullest), and for another GEMM of at least
/// kMinLastRowSplitKTiles k-tiles the most (up to 8) whose last row tile's
/// split units fit one wave. Only the cooperative schedule splits: its
/// consumers meet at the tile, and only the last split of a tile runs the
/// epilogue. A weight gradient's epilogue loads nothing through the ring;
/// another GEMM's split units load the ring inputs each, and the earlier
/// arrivals release them unread.
static LogicalResult planSplits(GemmOp gemm, std::optional<int64_t> pinned,
                                GemmKernelPlan &plan) {
  bool splittable = plan.schedule == GemmSchedule::Cooperative &&
                    (!plan.reducesRows || plan.boxInputCount() == 0);
  if (pinned) {
    if (*pinned < 1 || *pinned > kMaxSplits || !llvm::isPowerOf2_64(*pinned))
      return gemm.emitError("coda.plan splits = ")
             << *pinned
             << "; the generator splits a reduction into 1, 2, 4 or 8 parts";
    if (*pinned > 1 && !splittable)
      return gemm.emitError("coda.plan splits = ")
             << *pinned
             << " needs the cooperative schedule, and for a weight gradient "
                "(a_layout = \"km\") an epilogue that loads no input through "
                "the ring";
    plan.splits = *pinned;
    return success();
  }
  if (!splittable)
    return success();
  if (!plan.reducesRows) {
    int64_t splits = 1;
    while (splits < kMaxSplits &&
           plan.nTiles() * splits * 2 <= kPlannedMultiprocessors &&
           plan.kTiles() >= kMinLastRowSplitKTiles)
      splits *= 2;
    plan.splits = splits;
    return success();
  }
  int64_t tiles = plan.staticTiles();
  int64_t best = 1;
  for (int64_t splits = 1; splits <= kMaxRowSplits; splits *= 2) {
    if (getWaveFill(tiles * splits) > getWaveFill(tiles * best))
      best = splits;
    if (getWaveFill(tiles * splits) >= 0.9) {
      best = splits;
      break;
    }
  }
  plan.splits = best;
  return success();
}

/// Lets the kernel's launches take 128 x 256 tiles (`pinned`, or wherever
/// it can): a GEMM over the rows (not a weight gradient, whose tiles are
/// its weights' rows) of two consumers per tile (cooperative, or with an
/// epilogue warpgroup) with one B box per slab, an output width that is a
/// multiple of 256 (no half of a tile past it), concat pieces, weights and
/// accumulator shifts on 256-column boundaries (both halves of a wide tile
/// in one epilogue range and one weight), and no maximum or log-sum-exp
/// partial (its second pass over every accumulator spilled 40 bytes in the
/// LM head's kernel of wide tiles). Unpinned, a static row count widens
/// only where wide tiles take fewer rounds of kPlannedMultiprocessors at
/// it.
static LogicalResult planWideTiles(GemmOp gemm, std::optional<bool> pinned,
                                   GemmKernelPlan &plan) {
  std::string reason;
  llvm::raw_string_ostream os(reason);
  auto offBoundary = [](int64_t column) { return column % (2 * kTileN) != 0; };
  auto cut = llvm::find_if(plan.ranges, [&](const EpilogueRange &range) {
    return offBoundary(range.start);
  });
  if (plan.schedule == GemmSchedule::PingPong)
    os << "two consumers per tile, got \"pingpong\"";
  else if (plan.reducesRows)
    os << "a GEMM whose output rows are its rows (a_layout = \"mk\"), got a "
          "weight gradient";
  else if (plan.boxes != 1)
    os << "one weight box per tile, got " << plan.boxes
       << " (the epilogue reads the accumulator at " << plan.boxes
       << " column shifts)";
  else if (plan.width % (2 * kTileN) != 0)
    os << "an output width that is a multiple of " << 2 * kTileN << ", got "
       << plan.width;
  else if (cut != plan.ranges.end())
    os << "concat pieces that meet on " << 2 * kTileN
       << "-column boundaries (both halves of a wide tile run one range's "
          "epilogue), got a cut at column "
       << cut->start;
  else if (llvm::any_of(plan.ranges,
                        [&](const EpilogueRange &range) {
                          return llvm::any_of(range.bases, offBoundary);
                        }) ||
           llvm::any_of(plan.weightStarts, offBoundary))
    os << "weights and accumulator shifts on " << 2 * kTileN
       << "-column boundaries (a wide tile's second 128 columns are the next "
          "128 rows of its first's weight)";
  else if (llvm::any_of(
               cast<YieldOp>(gemm.getBody().getTerminator()).getValues(),
               [](Value value) {
                 auto partial = value.getDefiningOp<PartialReduceOp>();
                 return partial && (partial.getKind() == "max" ||
                                    partial.getKind() == "lse");
               }))
    os << "no partial that reduces rows to a maximum or a log-sum-exp (its "
          "second pass keeps every accumulator live)";
  if (pinned && *pinned && !reason.empty())
    return gemm.emitError("coda.plan wide_tiles = true needs ") << reason;
  plan.widens = pinned.value_or(true) && reason.empty();
  // Unpinned, a static row count widens only where wide tiles would be
  // chosen at it.
  int64_t rows =
      cast<RankedTensorType>(gemm.getA().front().getType()).getDimSize(0);
  if (plan.widens && !pinned && !ShapedType::isDynamic(rows)) {
    auto rounds = [&](int64_t tileRows, int64_t columnTiles) {
      return llvm::divideCeil(llvm::divideCeil(rows, tileRows) * columnTiles,
                              kPlannedMultiprocessors);
    };
    plan.widens = rounds(plan.tileM() / 2, plan.nTiles() / 2) <
                  rounds(plan.tileM(), plan.nTiles());
  }
  return success();
}

/// Whether an epilogue warpgroup pays for its hand-off: the epilogue
/// computes more than the accumulator's store, and reads no 16-bit [M, W]
/// tile (with one, the warpgroup loads it by TMA, but its epilogue over
/// both consumers' rows takes longer than the two consumers' own:
/// bench/NOTES.md §81), nor a per-column vector (a bias, with which its 160
/// registers spill, §57). Its results must all be
/// 16-bit tiles: the hand-off rounds the accumulators to bf16, which their
/// own rounding covers, but partials and f32 results would lose the f32
/// accumulator's precision. A weight gradient keeps the cooperative
/// schedule's split reduction.
static bool paysForEpilogueWarpgroup(GemmOp gemm, int64_t width) {
  if (gemm.getALayout() == "km" || yieldsOnlyAccumulator(gemm))
    return false;
  auto yield = cast<YieldOp>(gemm.getBody().getTerminator());
  for (auto [value, result] :
       llvm::zip_equal(yield.getValues(), gemm.getResults()))
    if (getPartialsSource(value) ||
        cast<RankedTensorType>(result.getType()).getElementTypeBitWidth() != 16)
      return false;
  return llvm::none_of(gemm.getInputs(), [&](Value input) {
    auto type = cast<RankedTensorType>(input.getType());
    return type.getRank() == 1 ||
           (isSixteenBitTmaTile(type) && type.getDimSize(1) == width);
  });
}

FailureOr<GemmKernelPlan>
mlir::coda::planGemmKernel(GemmOp gemm, const GemmPlanChoice &choice) {
  GemmSchedule schedule = choice.schedule.value_or(
      paysForEpilogueWarpgroup(gemm, getOutputWidth(gemm))
          ? GemmSchedule::EpilogueWarpgroup
          : GemmSchedule::Cooperative);
  int64_t stages = choice.stages;
  GemmKernelPlan plan;
  plan.schedule = schedule;
  plan.width = getOutputWidth(gemm);
  plan.weightsMNMajor = gemm.getBLayout() == "kn";
  plan.reducesRows = gemm.getALayout() == "km";
  if (plan.reducesRows)
    plan.outputRows = gemm.getM();
  else
    for (Value a : gemm.getA())
      plan.productKs.push_back(
          cast<RankedTensorType>(a.getType()).getDimSize(1));
  plan.stages = stages;
  plan.groupRows = choice.groupRows;
  if (failed(checkGemmOperands(gemm, plan.width)))
    return failure();
  auto yield = cast<YieldOp>(gemm.getBody().getTerminator());

  // Where concat pieces cut the output.
  ColumnWalk cutWalk(gemm);
  for (Value value : yield.getValues())
    if (failed(cutWalk.walk(value, 0, 0, plan.width)))
      return failure();
  // After the walk, so that an epilogue op the generator lacks is named
  // first. An integer input is the targets of partial_gathers and
  // softmax_target_grads, read one element per row, and nothing else.
  for (auto [index, input] : llvm::enumerate(gemm.getInputs())) {
    if (isa<FloatType>(cast<ShapedType>(input.getType()).getElementType()))
      continue;
    BlockArgument argument = gemm.getBody().getArgument(index + 1);
    bool targetsOnly = !argument.use_empty() &&
                       llvm::all_of(argument.getUsers(), [&](Operation *user) {
                         if (auto gather = dyn_cast<PartialGatherOp>(user))
                           return gather.getTargets() == argument;
                         auto grad = dyn_cast<SoftmaxTargetGradOp>(user);
                         return grad && grad.getTargets() == argument;
                       });
    if (!targetsOnly)
      return gemm.emitError("epilogue input #")
             << index << " of type " << input.getType()
             << " is not a floating-point tensor, nor the targets of "
                "coda.partial_gather or coda.softmax_target_grad and nothing "
                "else";
  }
  SmallVector<int64_t> cuts = {0, plan.width};
  for (auto [cut, concat] : cutWalk.cuts) {
    if (cut % kTileN != 0)
      return concat->emitError("the concat's pieces meet at output column ")
             << cut << ", which is not a multiple of the " << kTileN
             << "-column tile";
    cuts.push_back(cut);
  }
  llvm::sort(cuts);
  cuts.erase(llvm::unique(cuts), cuts.end());

  // The accumulator shifts of each range; the plan loads as many B boxes as
  // the range that needs most.
  for (auto [start, end] : llvm::zip(cuts, llvm::drop_begin(cuts))) {
    ColumnWalk baseWalk(gemm);
    for (Value value : yield.getValues())
      if (failed(baseWalk.walk(value, 0, start, end)))
        return failure();
    EpilogueRange range{start, end, {}};
    range.bases.assign(baseWalk.bases.begin(), baseWalk.bases.end());
    if (range.bases.empty())
      range.bases.push_back(0);
    llvm::sort(range.bases);
    plan.boxes = std::max<int64_t>(plan.boxes, range.bases.size());
    plan.ranges.push_back(std::move(range));
  }
  if (plan.boxes > 2)
    return gemm.emitError("the epilogue reads the accumulator at ")
           << plan.boxes
           << " column shifts of one tile; the generator loads at most 2 "
              "weight boxes per tile";
  for (EpilogueRange &range : plan.ranges)
    range.bases.resize(plan.boxes, range.bases.back());
  plan.slabs = 2 / plan.boxes;
  if (failed(planConsumers(gemm, choice, plan)))
    return failure();

  // Each box of each tile reads rows of one weight.
  int64_t accumulatorColumns = 0;
  for (Value weight : gemm.getProductWeights(0)) {
    plan.weightStarts.push_back(accumulatorColumns);
    accumulatorColumns += gemm.getWeightColumns(weight);
  }
  for (int64_t n0 = 0; n0 < plan.width; n0 += kTileN) {
    const EpilogueRange &range = plan.rangeOf(n0);
    int64_t last = std::min(n0 + kTileN, range.end) - 1;
    for (int64_t base : range.bases) {
      auto weightOf = [&](int64_t column) {
        return llvm::upper_bound(plan.weightStarts, column) -
               plan.weightStarts.begin() - 1;
      };
      if (weightOf(n0 + base) != weightOf(last + base))
        return gemm.emitError("the tile at output column ")
               << n0 << " reads accumulator columns [" << n0 + base << ", "
               << last + base + 1
               << "), which span two weights; weights must meet on a " << kTileN
               << "-column boundary of the tiles";
    }
  }

  // The epilogue warpgroup's input buffer takes its room before the ring;
  // the ring's inputs depend on its stages.
  if (plan.hasEpilogueWarpgroup())
    planBoxInputs(gemm, cutWalk, plan);
  if (stages == 0)
    plan.stages = std::min<int64_t>(kMaxStages, (kMaxSharedBytes - 1024 -
                                                 plan.handOffBytes() -
                                                 plan.epilogueInputBytes()) /
                                                    plan.stageBytes());
  if (plan.sharedBytes() > kMaxSharedBytes)
    return gemm.emitError("a ring of ")
           << stages << " stages of " << plan.stageBytes() / 1024
           << " KiB needs " << plan.sharedBytes() / 1024
           << " KiB of shared memory; a CTA has " << kMaxSharedBytes / 1024
           << " KiB";
  if (!plan.hasEpilogueWarpgroup())
    planBoxInputs(gemm, cutWalk, plan);
  if (failed(planSplits(gemm, choice.splits, plan)) ||
      failed(planWideTiles(gemm, choice.wideTiles, plan)))
    return failure();
  // The epilogue warpgroup stores its results from registers: the hand-off
  // buffer takes the room staging would.
  if (plan.hasEpilogueWarpgroup()) {
    plan.stagedResults.assign(gemm.getNumResults(), false);
    plan.stagedOverInputs.assign(gemm.getNumResults(), std::nullopt);
    return plan;
  }
  // An epilogue that reads tiles through the ring holds their pairs beside
  // its results' values, and a result stored from registers there spills
  // (bench/NOTES.md §48). Such a kernel stages results in the ring inputs'
  // boxes (§51) when the staging buffer cannot take them all, else, unless
  // the stages are fixed, gives the ring's last slot to staging when that
  // stages every result. Without ring inputs the slot is worth more (the
  // forward gate/up: 3% slower).
  if (planOutputStaging(gemm, plan, /*overInputBoxes=*/false) ||
      plan.boxInputCount() == 0)
    return plan;
  if (readsInputsBeforeWriting(gemm)) {
    GemmKernelPlan over = plan;
    if (planOutputStaging(gemm, over, /*overInputBoxes=*/true))
      return over;
  }
  if (stages == 0 && plan.stages > kMinStagesForStaging) {
    GemmKernelPlan traded = plan;
    --traded.stages;
    planBoxInputs(gemm, cutWalk, traded);
    if (planOutputStaging(gemm, traded, /*overInputBoxes=*/false))
      plan = std::move(traded);
  }
  return plan;
}

DictionaryAttr mlir::coda::getPlanAttr(MLIRContext *context,
                                       const GemmKernelPlan &plan) {
  Builder b(context);
  return b.getDictionaryAttr({
      b.getNamedAttr("boxes", b.getI64IntegerAttr(plan.boxes)),
      b.getNamedAttr("consumers", b.getI64IntegerAttr(plan.consumers)),
      b.getNamedAttr("group_rows", b.getI64IntegerAttr(plan.groupRows)),
      b.getNamedAttr("rows_per_tile", b.getI64IntegerAttr(plan.tileM())),
      b.getNamedAttr("schedule",
                     b.getStringAttr(stringifyGemmSchedule(plan.schedule))),
      b.getNamedAttr("splits", b.getI64IntegerAttr(plan.splits)),
      b.getNamedAttr("stages", b.getI64IntegerAttr(plan.stages)),
      b.getNamedAttr("wide_tiles", b.getBoolAttr(plan.widens)),
  });
}

FailureOr<std::optional<GemmPlanChoice>> mlir::coda::readPlanAttr(GemmOp gemm) {
  Attribute attr = gemm->getAttr(kPlanAttrName);
  if (!attr)
    return std::optional<GemmPlanChoice>();
  auto plan = dyn_cast<DictionaryAttr>(attr);
  auto schedule = plan ? plan.getAs<StringAttr>("schedule") : StringAttr();
  auto stages = plan ? plan.getAs<IntegerAttr>("stages") : IntegerAttr();
  Attribute splits = plan ? plan.get("splits") : Attribute();
  Attribute groupRows = plan ? plan.get("group_rows") : Attribute();
  Attribute consumers = plan ? plan.get("consumers") : Attribute();
  Attribute wideTiles = plan ? plan.get("wide_tiles") : Attribute();
  std::optional<GemmSchedule> parsed =
      schedule ? parseGemmSchedule(schedule.getValue()) : std::nullopt;
  auto isCount = [](Attribute value) {
    auto count = dyn_cast_or_null<IntegerAttr>(value);
    return count && count.getInt() >= 1;
  };
  if (!parsed || !stages || stages.getInt() < 2 ||
      (splits && !isa<IntegerAttr>(splits)) ||
      (groupRows && !isCount(groupRows)) ||
      (consumers && !isa<IntegerAttr>(consumers)) ||
      (wideTiles && !isa<BoolAttr>(wideTiles)))
    return gemm.emitError("coda.plan must be a dictionary with schedule = "
                          "\"cooperative\", \"pingpong\" or "
                          "\"epilogue-warpgroup\", stages >= 2, and "
                          "optionally integer splits, integer consumers, "
                          "group_rows >= 1 and a boolean wide_tiles, got ")
           << attr;
  GemmPlanChoice choice{*parsed,           stages.getInt(), std::nullopt,
                        kDefaultGroupRows, std::nullopt,    std::nullopt};
  if (splits)
    choice.splits = cast<IntegerAttr>(splits).getInt();
  if (groupRows)
    choice.groupRows = cast<IntegerAttr>(groupRows).getInt();
  if (consumers)
    choice.consumers = cast<IntegerAttr>(consumers).getInt();
  if (wideTiles)
    choice.wideTiles = cast<BoolAttr>(wideTiles).getValue();
  return std::optional(choice);
}
