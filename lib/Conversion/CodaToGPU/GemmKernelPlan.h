//===- GemmKernelPlan.h - the shape of one GEMM kernel ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// What the kernel generator decides about a `coda.gemm` before it emits
// anything: the CTA tile, the ring, and where the epilogue finds each
// accumulator column it reads.
//
// The epilogue is indexed by output column. Every value of the region is a
// tensor whose columns are reached from the output's through slices (a
// shift) and concats (a choice of piece); the accumulator is reached at one
// or two shifts ("bases") per tile. A CTA computing output columns
// [n0, n0 + 128) therefore loads, per base b, the weight rows that hold
// accumulator columns [n0 + b, n0 + b + 128) as one B box, and a register
// of that box's accumulator holds the column the epilogue asks for. Where a
// concat's pieces meet, the bases change: the output is cut into column
// ranges, each with its own bases and its own copy of the epilogue.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_GEMMKERNELPLAN_H
#define CODA_LIB_CONVERSION_CODATOGPU_GEMMKERNELPLAN_H

#include "coda/Conversion/Passes.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"

#include "SwizzledPairs.h"

namespace mlir::coda {

/// One consumer's m64 slab of an epilogue input loaded by TMA: the tile's
/// 128 columns as two 64 x 64 boxes.
constexpr int64_t kInputSlabBytes = 2 * kSwizzledBoxBytes;

/// The columns of epilogue value `value` (a tile, a per-column vector, or 1
/// for a per-row column [M, 1]).
inline int64_t getWidth(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  return type.getDimSize(type.getRank() - 1);
}

/// Whether `value` is a per-row column [M, 1].
inline bool isPerRow(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  return type.getRank() == 2 && type.getDimSize(1) == 1;
}

/// Output columns per CTA (one wgmma n128 box per accumulator base), the K
/// step of the mainloop, and the consumer warpgroups of a CTA: two, or three
/// in a cooperative CTA whose tiles are 1.5 times taller.
constexpr int64_t kTileN = 128;
constexpr int64_t kTileK = 64;
constexpr int64_t kDefaultConsumers = 2;
constexpr int64_t kMaxConsumers = 3;
/// The shared memory one CTA may use on sm_90.
constexpr int64_t kMaxSharedBytes = 227 * 1024;

/// A range of output columns with one epilogue.
struct EpilogueRange {
  /// Output columns [start, end); multiples of `kTileN` except the last end.
  int64_t start, end;
  /// The accumulator shift of each B box in this range.
  SmallVector<int64_t> bases;
};

/// How the two consumer warpgroups share the work of a CTA.
enum class GemmSchedule {
  /// Both work on one tile, each on its own rows.
  Cooperative,
  /// Each works on its own tiles, in turn: one's epilogue runs while the
  /// other's wgmma runs.
  PingPong,
  /// Both work on one tile, each on its own rows, and hand their
  /// accumulators, rounded to 16 bits, to a fourth warpgroup through shared
  /// memory; it runs the epilogue while they compute the next tile.
  EpilogueWarpgroup,
};

/// Parses "cooperative", "pingpong" or "epilogue-warpgroup", and back.
std::optional<GemmSchedule> parseGemmSchedule(StringRef name);
StringRef stringifyGemmSchedule(GemmSchedule schedule);

/// The schedule of the `schedule`, `stages` and `group-rows` pass options
/// (none for "auto": the planner chooses per GEMM), or failure after
/// reporting at `anchor`'s location (without the op) why they are not one.
FailureOr<std::optional<GemmSchedule>> parseScheduleOptions(Operation *anchor,
                                                            StringRef schedule,
                                                            int64_t stages,
                                                            int64_t groupRows);

/// The SMs whose waves the planner fills when it splits a reduction: the
/// H100 SXM's and the H200's.
constexpr int64_t kPlannedMultiprocessors = 132;
/// The most parts a reduction is split into; the parts are a power of two
/// (1, 2, 4 or 8). The planner splits a weight gradient's rows into at
/// most kMaxRowSplits.
constexpr int64_t kMaxSplits = 8;
constexpr int64_t kMaxRowSplits = 4;
/// What storing and reading back a split unit's partial accumulators costs,
/// in k-tiles of its mainloop (bench/NOTES.md §47).
constexpr int64_t kSplitOverheadKTiles = 8;
/// The fewest k-tiles of a GEMM whose last row tile the planner splits:
/// shorter reductions lost to the meeting (bench/NOTES.md §73).
constexpr int64_t kMinLastRowSplitKTiles = 8 * kSplitOverheadKTiles;

/// What the pass options or a `coda.plan` fix about a GEMM's kernel.
struct GemmPlanChoice {
  /// None: the planner chooses (planGemmKernel).
  std::optional<GemmSchedule> schedule;
  /// Ring slots; 0: as many as fit.
  int64_t stages = 0;
  /// The most parts a split reduction is cut into; none: the planner
  /// chooses.
  std::optional<int64_t> splits;
  /// Row tiles per group of the tile order.
  int64_t groupRows = kDefaultGroupRows;
  /// Consumer warpgroups; none: the planner chooses.
  std::optional<int64_t> consumers = std::nullopt;
  /// Whether launches may take 128 x 256 tiles; none: where the kernel
  /// can (planWideTiles).
  std::optional<bool> wideTiles = std::nullopt;
};

/// The static shape of one GEMM kernel. The grid is persistent: each CTA
/// walks tiles blockIdx.x, blockIdx.x + gridDim.x, ...
struct GemmKernelPlan {
  GemmSchedule schedule = GemmSchedule::Cooperative;
  /// Consumer warpgroups: kDefaultConsumers, or kMaxConsumers in the
  /// cooperative schedule (each on its own slabs of one tile).
  int64_t consumers = kDefaultConsumers;
  /// m64 slabs per consumer warpgroup and B boxes per stage; their product
  /// is at most 2 (128 accumulator registers per thread).
  int64_t slabs = 2, boxes = 1;
  int64_t stages = 0;
  /// Output columns W the grid covers.
  int64_t width = 0;
  /// Per product summed into the accumulator, its reduction length K: the
  /// products' k-tiles run back to back, each product's last one padded
  /// with zeros by TMA.
  SmallVector<int64_t> productKs;
  /// Whether the weights are `[K, N]` (b_layout "kn", a dgrad's `W`), read
  /// MN-major: each 128-column B box is two TMA boxes of 64 k-rows by 64
  /// columns, 8 KiB apart. Otherwise they are `[N, K]`, read K-major.
  bool weightsMNMajor = false;
  /// Whether `a` is `[K, M]` (a_layout "km", a weight gradient's `dy`): the
  /// reduction runs over the function's rows, its length known only at the
  /// launch (the kernel's row argument), and the output rows are the static
  /// `outputRows`. A is read MN-major, tileM / 64 TMA boxes of 64 k-rows by
  /// 64 columns per k-tile; the weights must be "kn".
  bool reducesRows = false;
  int64_t outputRows = 0;
  SmallVector<EpilogueRange> ranges;
  /// The first accumulator column of each weight.
  SmallVector<int64_t> weightStarts;
  /// Which results go out through shared memory and a TMA store, and the
  /// columns of one such store chunk (0: none; 64 or 128). Each consumer
  /// has one 64-row chunk of every staged result after the ring.
  SmallVector<bool> stagedResults;
  int64_t stagingColumns = 0;
  /// Per result, the epilogue input loaded through the ring whose boxes it
  /// is staged in (none: not there). Each thread writes the result's pair
  /// where it read the input's; at a slab's end the consumer's boxes of
  /// those steps go out by TMA with the result's tensor map, and the slab's
  /// ring steps are released once the stores have read them.
  SmallVector<std::optional<unsigned>> stagedOverInputs;
  /// Which epilogue inputs arrive by TMA as 64 x 64 boxes: 16-bit [M, W]
  /// tiles read at the output's own columns. Cooperative 256-row tiles load
  /// them through the ring: after a tile's k-tiles, each m64 slab takes one
  /// ring step per such input, the slab's rows of every consumer, 128
  /// columns, as four 64 x 64 boxes in the slot's A box. The epilogue
  /// warpgroup loads them itself, one consumer's slab at a time, into its
  /// input buffer (epilogueInputBytes).
  SmallVector<bool> boxInputs;
  /// The most parts a reduction is split into (split-K): every tile's, for
  /// a weight gradient; otherwise the last row tile's, whose tiles then
  /// follow the whole ones. Each launch takes as many as pay at its row
  /// count. A split tile runs as units (split, tile), split-major, each
  /// over ceil(k-tiles / splits) k-tiles. Per tile and consumer, the first
  /// splits - 1 warpgroups to finish store their accumulators to the
  /// kernel's scratch and count them stored; the last adds them and runs
  /// the epilogue.
  int64_t splits = 1;
  /// The row tiles of a group in the whole tiles' order: the CTAs of a wave
  /// sweep the column tiles over the group's rows together, so that they
  /// share its A rows and each column tile's weight boxes in L2.
  int64_t groupRows = kDefaultGroupRows;
  /// Whether the GEMM's launches may take 128 x 256 tiles where those fill
  /// fewer rounds of the grid than 256 x 128 tiles (bench/NOTES.md §92-§93):
  /// over a dynamic row count, a kernel of wide tiles beside the tall one,
  /// the runtime launching whichever fills fewer rounds; over a static row
  /// count (where wide tiles fill fewer), the wide kernel alone.
  bool widens = false;
  /// Whether this kernel's tiles are 128 rows by 256 columns, each
  /// consumer's two m64 slabs side by side (TileShape). A wide tile's A is
  /// two 64-row boxes in the first half of the slot's A box, its second 128
  /// columns' B box in the second half; it splits nothing.
  bool wide = false;

  /// The plan of the kernel of wide tiles (`wide`) beside this one.
  GemmKernelPlan wideKernel() const {
    GemmKernelPlan widePlan = *this;
    widePlan.wide = true;
    widePlan.splits = 1;
    return widePlan;
  }
  /// The rows and columns of a tile, and the column tiles of the output.
  int64_t tileRows() const { return wide ? tileM() / 2 : tileM(); }
  int64_t tileColumns() const { return wide ? 2 * kTileN : kTileN; }
  int64_t columnTiles() const { return wide ? nTiles() / 2 : nTiles(); }

  /// Consumer warpgroups per tile, and the rows of a tile.
  int64_t consumersPerTile() const {
    return schedule == GemmSchedule::PingPong ? 1 : consumers;
  }
  /// Whether a warpgroup of its own runs the epilogue.
  bool hasEpilogueWarpgroup() const {
    return schedule == GemmSchedule::EpilogueWarpgroup;
  }
  int64_t tileM() const { return consumersPerTile() * slabs * 64; }
  int64_t aBoxBytes() const { return tileM() * kTileK * 2; }
  int64_t bBoxBytes() const { return kTileN * kTileK * 2; }
  /// The rows of one TMA box of a weight: 128 weight rows (K-major), or 64
  /// k-rows (MN-major).
  int64_t weightMapRows() const { return weightsMNMajor ? kTileK : kTileN; }
  int64_t stageBytes() const { return aBoxBytes() + boxes * bBoxBytes(); }
  int64_t stagedCount() const { return llvm::count(stagedResults, true); }
  /// Per result, whether it leaves by TMA stores (staged in the buffer or
  /// over an input): its tensor map is a kernel argument.
  SmallVector<bool> resultsStoredByTma() const {
    SmallVector<bool> stored(stagedResults);
    for (auto [isStored, input] : llvm::zip_equal(stored, stagedOverInputs))
      isStored |= input.has_value();
    return stored;
  }
  bool stagesOverInputs() const {
    return llvm::any_of(stagedOverInputs, [](std::optional<unsigned> input) {
      return input.has_value();
    });
  }
  int64_t boxInputCount() const { return llvm::count(boxInputs, true); }
  /// The ring steps of one tile's epilogue inputs: one per slab and input
  /// (none when the epilogue warpgroup loads them).
  int64_t epilogueSteps() const {
    return hasEpilogueWarpgroup() ? 0 : slabs * boxInputCount();
  }
  /// The epilogue warpgroup's input buffer, after the hand-off buffer: one
  /// consumer's m64 slab of each input it loads, two 64 x 64 boxes each.
  int64_t epilogueInputBytes() const {
    return hasEpilogueWarpgroup() ? boxInputCount() * kInputSlabBytes : 0;
  }
  /// One consumer's staging buffer: a 64-row chunk of each staged result.
  int64_t stagingBytesPerConsumer() const {
    return stagedCount() * 64 * stagingColumns * 2;
  }
  /// The buffer through which one consumer at a time hands its
  /// accumulators to the epilogue warpgroup, after the ring: 16 bits per
  /// accumulator register of its 128 threads.
  int64_t handOffBytes() const {
    return hasEpilogueWarpgroup() ? 128 * slabs * boxes * (kTileN / 2) * 2 : 0;
  }
  /// Where the epilogue warpgroup's input buffer starts: after the ring,
  /// the staging buffers and the hand-off buffer.
  int64_t epilogueInputOffset() const {
    return stages * stageBytes() + consumers * stagingBytesPerConsumer() +
           handOffBytes();
  }
  /// Where each consumer's split arrival is passed to its threads: after
  /// the epilogue warpgroup's input buffer, 4 bytes per consumer.
  int64_t arrivalOffset() const {
    return epilogueInputOffset() + epilogueInputBytes();
  }
  int64_t arrivalBytes() const { return splits > 1 ? 4 * consumers : 0; }
  /// The dynamic shared memory: the ring, the staging buffers, the
  /// hand-off buffer, the epilogue warpgroup's input buffer, the split
  /// arrivals and 1 KiB of alignment slack.
  int64_t sharedBytes() const {
    return arrivalOffset() + arrivalBytes() + 1024;
  }
  /// The tiles of a weight gradient, whose output rows are static.
  int64_t staticTiles() const {
    return llvm::divideCeil(outputRows, tileM()) * nTiles();
  }
  /// The tiles a split kernel may split: every tile of a weight gradient,
  /// else the last row tile's.
  int64_t splitTiles() const { return reducesRows ? staticTiles() : nTiles(); }
  /// The scratch of a split kernel: two 4-byte counters per split tile and
  /// consumer (arrived, stored), padded to 256 bytes, then per split tile,
  /// split slot and consumer one warpgroup's accumulators (64 KiB).
  int64_t splitCounterBytes() const {
    return llvm::alignTo(splitTiles() * consumers * 2 * 4, 256);
  }
  int64_t partialBytesPerConsumer() const {
    return 128 * slabs * boxes * (kTileN / 2) * 4;
  }
  int64_t scratchBytes() const {
    if (splits == 1)
      return 0;
    return splitCounterBytes() +
           splitTiles() * (splits - 1) * consumers * partialBytesPerConsumer();
  }
  int64_t threads() const {
    return 128 * (1 + consumers + (hasEpilogueWarpgroup() ? 1 : 0));
  }
  /// The k-tiles of product `product` of a static reduction (not
  /// `reducesRows`).
  int64_t productKTiles(unsigned product) const {
    return llvm::divideCeil(productKs[product], kTileK);
  }
  /// The k-tiles of a static reduction, all products together.
  int64_t kTiles() const {
    int64_t tiles = 0;
    for (unsigned product = 0; product < productKs.size(); ++product)
      tiles += productKTiles(product);
    return tiles;
  }
  /// The rows of one TMA box of `a`: the tile's (K-major), or 64 k-rows.
  int64_t aMapRows() const { return reducesRows ? kTileK : tileM(); }
  /// Whether each product's `a` also arrives as a tensor map of 64-row
  /// boxes, one m64 slab each: a tile whose rows end inside it loads only
  /// its slabs that hold rows (bench/NOTES.md §78). The slabs it does not
  /// load hold whatever earlier loads left there, whose results the epilogue
  /// leaves out as it leaves out every row past M.
  bool loadsSlabBoxes() const { return !reducesRows && tileM() > 64; }
  int64_t nTiles() const { return llvm::divideCeil(width, kTileN); }
  /// The range that holds output column `column`.
  const EpilogueRange &rangeOf(int64_t column) const;
};

/// Plans the kernel of `gemm` as `choice` fixes it: unless it fixes the
/// schedule, an epilogue warpgroup where the epilogue computes more than
/// the accumulator, reads neither a 16-bit [M, W] tile (which the
/// cooperative schedule loads through the ring) nor a per-column vector,
/// and has only 16-bit tile results, and the GEMM is not a weight
/// gradient, else cooperative
/// (bench/NOTES.md §57); unless `choice.consumers` fixes them, three
/// consumers for a weight gradient whose epilogue reads only the
/// accumulator when that keeps 90% of kPlannedMultiprocessors busy in its
/// one wave and two do not without a split (bench/NOTES.md §90), else
/// two; a ring of
/// `choice.stages` slots (0: as many as fit in shared memory, at most 8),
/// and unless `choice.splits` fixes it, a weight gradient's row reduction
/// split into the fewest parts (1, 2 or 4) that keep 90% of
/// kPlannedMultiprocessors busy in every wave, another cooperative GEMM's
/// last row tile into the most whose split tiles fit one wave
/// (bench/NOTES.md §73). Reports on the op (or the epilogue op at fault)
/// why the generator cannot take it.
FailureOr<GemmKernelPlan> planGemmKernel(GemmOp gemm,
                                         const GemmPlanChoice &choice);

/// The attribute coda-plan-kernels puts on a GEMM: {schedule, consumers,
/// stages, splits, group_rows, rows_per_tile, boxes}. convert-coda-to-gpu
/// follows its schedule, stages, consumers, splits and group_rows (the
/// last three when present).
constexpr llvm::StringLiteral kPlanAttrName = "coda.plan";
DictionaryAttr getPlanAttr(MLIRContext *context, const GemmKernelPlan &plan);

/// What `gemm`'s `coda.plan` fixes, if it has one; reports a malformed plan
/// on the op.
FailureOr<std::optional<GemmPlanChoice>> readPlanAttr(GemmOp gemm);

/// The output columns of `gemm`'s epilogue: the width of its tile results,
/// or of the values its partials reduce.
int64_t getOutputWidth(GemmOp gemm);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_GEMMKERNELPLAN_H
