//===- GemmKernel.cpp - the Hopper GEMM-epilogue kernel generator ---------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A persistent CTA of three warpgroups (four with an epilogue warpgroup or a
// third consumer) walks output tiles (each plan.tileM() rows by 128 output
// columns of `a · bᵀ`) in the order of its TileSchedule: rounds of gridDim.x,
// tile blockIdx.x of the even rounds and gridDim.x - 1 - blockIdx.x of the odd
// ones, in a grouped order:
//
//   warpgroup 0, the producer, gives up registers (setmaxnreg 24); its
//   first thread walks the tiles' k-tiles in one sequence g: it waits until
//   slot s = g % stages is empty (mbarrier `empty[s]`, phase g / stages -
//   1), arms `full[s]` with the stage's bytes, and starts the TMA boxes of
//   that k-tile: A (tileM rows x 64 k; for a [K, M] `a`, a_layout "km",
//   tileM / 64 boxes of 64 k-rows x 64 columns read MN-major, the k-tiles
//   counted from the row argument) and one B box per accumulator base
//   (128 weight rows x 64 k; for a [K, N] weight, b_layout "kn", two boxes
//   of 64 k-rows x 64 columns that wgmma reads MN-major), into
//   128-byte-swizzled shared memory. A GEMM that sums several products
//   runs their k-tiles back to back, each from its own A and weight maps
//   at its k within that product. After a tile's k-tiles, the epilogue
//   inputs of plan.boxInputs take one step each per m64 slab: that slab's
//   rows of both consumers, the tile's 128 columns, as four 64 x 64 boxes
//   in the slot's A box. A tile whose rows end before its last m64 slab
//   (the last row tile) loads A only for its slabs that hold rows, one
//   64-row box each from a second tensor map, and arms its k-tiles with
//   those bytes: the other slabs hold whatever earlier loads left, which only
//   rows past M read;
//   warpgroups 1 and 2 (and 3), the consumers, take registers (setmaxnreg
//   240, or 160 where the CTA has four warpgroups, whose producer keeps
//   32).
//   Cooperative: all work on every tile, each on plan.slabs m64 slabs of
//   its rows. Ping-pong: consumer c takes the CTA's tiles c, c + 2, ...,
//   and starts a tile's wgmma only once the other has issued its previous
//   tile's (mbarriers `turn`), so one's epilogue overlaps the other's
//   mainloop. Per k-tile a consumer waits for `full[s]`, issues slabs x
//   boxes x 4 wgmma m64n128k16 from shared-memory descriptors, keeps one
//   group in flight, and releases the slot of the retired group (`empty`,
//   one arrive per warp). A consumer whose rows all lie past M issues the
//   first k-tile's wgmma only and then just waits for and releases the
//   rest, reconverging each warp after its arrive. Before a tile's first k-tile
//   it loads its rows' values of the per-row inputs the epilogue reads; after
//   the tile it runs the epilogue on its registers (EpilogueEmitter), which
//   waits for a slab's input steps before its first batch and releases them
//   after its last, and sends the 16-bit tile results out through a staging
//   buffer per consumer and TMA stores (OutputStaging) when the ring leaves
//   room for it.
//
// Wide tiles (plan.wide: the kernel beside a tall one that the runtime
// launches where 128 x 256 tiles fill fewer rounds of the grid than 256 x
// 128 ones; TileSchedule, TileShape): each consumer has one m64 slab of
// rows at both column halves, its slab s reading the tile's A rows of that
// consumer and B box s. The producer loads A as two 64-row boxes into the
// first half of the slot's A box, the first 128 columns' B box into the
// slot's B box and the second 128 columns' into the second half of the A
// box. Such a kernel splits nothing.
//
// After its setup (mbarriers, tensor-map prefetch) every thread waits for
// the grids before this one to finish (emitGridDependencyWait), so the
// kernel can be launched while they end; the producer lets the next grid
// launch once it has issued its last loads (emitDependentsLaunch).
//
// Epilogue-warpgroup schedule (plan.hasEpilogueWarpgroup()): cooperative
// tiles, but after its mainloop a consumer only hands its accumulators,
// rounded to bf16, to warpgroup 3 through a 32 KiB buffer after the ring
// (handOff), and starts the next tile; warpgroup 3 runs the epilogue of
// both consumers' rows in turn, its results stored from registers
// (buildEpilogueWarpgroup). It loads the tile inputs of plan.boxInputs
// itself, by TMA, one consumer's m64 slab at a time into its input buffer
// after the hand-off buffer (loadEpilogueInputs), and meets at its named
// barrier before loading it again; the producer loads no epilogue input.
// Registers: 32, 160, 160 and 160.
//
// A split kernel (plan.splits > 1) walks units instead of tiles: first
// the whole tiles, then the split tiles' units, all tiles of split 0, then
// of split 1, ...; a split unit is its tile's k-tiles [s · k, (s + 1) · k)
// for k = ceil(k-tiles / splits). A weight gradient splits every tile; any
// other GEMM only its last row tile, whose tiles then follow the whole
// ones (the others keep the grouped order among themselves). How many
// splits (a power of two up to plan.splits) each launch chooses from its row
// count and grid (TileSchedule). After a split unit's mainloop each
// consumer warpgroup counts its arrival at the tile (a device-scope atomic
// on the kernel's scratch); the first splits - 1 to arrive store the
// accumulators of their slabs that hold rows and count them stored (fence,
// atomic) and release their epilogue inputs' ring steps unread; the last
// waits for that count, adds theirs, zeroes both counters for the next
// launch and runs the epilogue (SplitMeeting). Only units past their
// mainloop are waited for.
//
// TMA fills rows and columns past the tensors with zeros and clips its
// stores; the epilogue predicates its other stores and its sums over rows
// on the row, so that rows past M, whatever their accumulators hold, reach
// no result.
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"

#include "EpilogueEmitter.h"
#include "KernelFunction.h"
#include "SplitMeeting.h"
#include "TileSchedule.h"
#include "VectorAccess.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"

#include <optional>

using namespace mlir;
using namespace mlir::coda;

/// Registers per thread of the producer and of the consumers after
/// setmaxnreg: 128 x 24 + 256 x 240 fits the 64 Ki registers of an SM.
constexpr int32_t kProducerRegisters = 24;
constexpr int32_t kConsumerRegisters = 240;
/// With four warpgroups (an epilogue warpgroup, or three consumers):
/// 128 x 32 + 384 x 160 fits them too. A consumer then holds little more
/// than its 128 accumulator registers (it spills at 152, the producer at
/// 24).
constexpr int32_t kFourWarpgroupProducerRegisters = 32;
constexpr int32_t kFourWarpgroupConsumerRegisters = 160;
constexpr int32_t kEpilogueRegisters = 160;
/// The accumulator values a thread moves through the hand-off buffer in one
/// 16-byte access.
constexpr int64_t kHandOffGroup = 8;
/// The epilogue warpgroup's named barrier (0 is the CTA's, 1 and 2 the
/// consumers': a CTA with an epilogue warpgroup has two).
constexpr int32_t kEpilogueBarrier = 3;
/// The bytes of one 64-column swizzle atom of an MN-major B box: 64 k-rows
/// of 128 bytes.
constexpr int64_t kMNMajorAtomBytes = 64 * 128;

namespace {
/// Builds one kernel; holds the values every part of it uses.
class GemmKernelBuilder {
public:
  GemmKernelBuilder(OpBuilder &builder, GemmOp gemm, const GemmKernelPlan &plan)
      : b(builder), loc(gemm.getLoc()), gemm(gemm), plan(plan) {}

  void build(StringRef name);

private:
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  /// Whether the CTA has four warpgroups, which share the registers as
  /// kFourWarpgroup*Registers say.
  bool hasFourWarpgroups() const { return plan.threads() == 4 * 128; }
  Value i64(int64_t value) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
  }
  /// A box of `rows` rows by 64 columns (of `element`, the operands' type
  /// by default) in shared memory.
  MemRefType boxType(int64_t rows, Type element = {}) {
    return MemRefType::get({rows, kTileK}, element ? element : elementType,
                           MemRefLayoutAttrInterface(),
                           gpu::AddressSpaceAttr::get(
                               b.getContext(), gpu::AddressSpace::Workgroup));
  }
  /// The tensor map of boxes of `rows` rows by 64 columns (of `element`,
  /// the operands' type by default).
  nvgpu::TensorMapDescriptorType mapType(int64_t rows, Type element = {}) {
    return nvgpu::TensorMapDescriptorType::get(
        b.getContext(),
        MemRefType::get({rows, kTileK}, element ? element : elementType,
                        MemRefLayoutAttrInterface(), b.getI64IntegerAttr(3)),
        nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
        nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
        nvgpu::TensorMapOOBKind::OOB_ZERO,
        nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  }
  /// Shared memory: all A slots, then the B slots, box by box.
  Value aOffset(Value slot) {
    return arith::MulIOp::create(b, loc, slot, index(plan.aBoxBytes()));
  }
  Value bOffset(Value slot, int64_t box) {
    Value boxIndex = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, slot, index(plan.boxes)),
        index(box));
    return arith::AddIOp::create(
        b, loc, index(plan.stages * plan.aBoxBytes()),
        arith::MulIOp::create(b, loc, boxIndex, index(plan.bBoxBytes())));
  }
  /// B box `box` of a wide tile's second 128 columns in `slot`: in the
  /// second half of the slot's A box, whose first half holds the tile's two
  /// m64 slabs of A.
  Value secondColumnsOffset(Value slot, int64_t box) {
    return arith::AddIOp::create(
        b, loc, aOffset(slot),
        index(plan.aBoxBytes() / 2 + box * plan.bBoxBytes()));
  }
  /// The B box that slab `slab`'s accumulators of box `box` read in
  /// `slot`: the slot's, but a wide tile's second slab reads its second 128
  /// columns' (secondColumnsOffset).
  Value weightBoxOffset(Value slot, int64_t slab, int64_t box) {
    if (slab == 0 || !plan.wide)
      return bOffset(slot, box);
    return secondColumnsOffset(slot, box);
  }
  Value view(Value byteOffset, int64_t rows, Type element = {});
  /// The shared-memory matrix descriptor of the box at `byteOffset`:
  /// K-major, 128-byte swizzle, 1024 bytes between 8-row groups.
  Value descriptor(Value byteOffset, int64_t rows);
  /// The descriptor of an MN-major B box at `byteOffset`: two 64-column
  /// swizzle atoms kMNMajorAtomBytes apart (the leading byte offset), 1024
  /// bytes between groups of 8 k-rows (the stride byte offset).
  Value mnMajorDescriptor(Value byteOffset);
  void waitParity(Value barriers, Value slot, Value phase);

  void buildSetup();
  void buildProducer();
  void buildConsumer();
  /// Epilogue warpgroup schedule: after its mainloop, a consumer rounds its
  /// accumulators to bf16 and writes them to the hand-off buffer, once the
  /// epilogue warpgroup has read the previous consumer's (`handOffEmpty`),
  /// and signals them (`handOffFull`).
  void handOff(Value consumer, Value thread, Value local,
               ArrayRef<Value> accumulators);
  /// The epilogue warpgroup: per tile, per consumer, reads the hand-off
  /// buffer into registers, frees it, and runs the epilogue on them.
  void buildEpilogueWarpgroup();
  /// The epilogue warpgroup's side of a slab of `consumer`'s rows in a tile
  /// of `shape` (fill number `fill` of its input buffer): its first thread
  /// loads the slab's boxes of every input of plan.boxInputs, and the
  /// warpgroup waits for them. Returns where each input's boxes sit.
  SmallVector<std::optional<InputBoxes>>
  loadEpilogueInputs(Value m0, Value n0, const TileShape &shape, Value consumer,
                     int64_t slab, Value fill, Value leader, Value rowInSlab,
                     Value quad);
  /// The thread's index in its warpgroup, its lane, and its upper row in
  /// each m64 slab of wgmma's fragment.
  struct FragmentThread {
    Value thread, lane, rowInSlab;
  };
  FragmentThread fragmentThread();
  /// The hand-off buffer (after the ring), as a shared-memory pointer; a
  /// thread's 16-byte group g is element (g · 128 + thread) · 8 of it.
  Value handOffBuffer();
  /// The weight map (a pointer) and first weight row of B box `box` of the
  /// tile at output column `n0` in product `product`.
  std::pair<Value, Value> boxSource(Value n0, int64_t box, unsigned product);
  /// A TMA load of `map`'s box at `coordinates` (innermost first) into the
  /// box of `rows` rows by 64 columns (of `element`) at `byteOffset` in
  /// shared memory, counted on barrier `slot` of `barriers` (the ring's
  /// `full` by default).
  void loadBox(Value map, ValueRange coordinates, Value byteOffset,
               int64_t rows, Value slot, Type element = {},
               Value barriers = {});
  /// The TMA loads of one consumer's m64 slab of epilogue input `map`: its
  /// 64 rows from `row` by the tile's 128 columns from `n0`, as two 64 x 64
  /// boxes from `byteOffset`, counted on barrier `slot` of `barriers` (the
  /// ring's `full` by default).
  void loadInputSlab(Value map, Value n0, Value row, Value byteOffset,
                     Value slot, Value barriers = {});
  /// The TMA loads of k-tile `kTile` (counted over all products) into
  /// `slot`: A's box and the B boxes of `sources`, one (map, row) per box
  /// of each product. Where `slabs` is set (plan.loadsSlabBoxes), a tile
  /// with `slabs` below its m64 slabs loads only its first `slabs` slabs of
  /// A, one box of 64 rows each. A wide tile also loads the B boxes of its
  /// second 128 columns.
  void loadKTile(Value slot, Value kTile, Value m0, Value slabs,
                 ArrayRef<SmallVector<std::pair<Value, Value>>> sources);
  /// A's part of a k-tile at column `k`, from the map at `pointer` (and,
  /// for a tile of fewer `slabs`, the 64-row map at `slabPointer`).
  void loadA(Value slot, Value k, Value m0, Value slabs, Value pointer,
             Value slabPointer);
  /// The weights' part of a k-tile at row `k`: one (map, first row) per B
  /// box, into the shared-memory byte offsets `offsets`.
  void loadWeights(Value slot, Value k, ArrayRef<std::pair<Value, Value>> boxes,
                   ArrayRef<Value> offsets);
  /// Slot and phase of step `g` of the ring.
  std::pair<Value, Value> ringPosition(Value g);
  /// The producer's side of step `g`: waits until its slot is empty (from
  /// the ring's second round on) and arms `full` with `bytes`. Returns the
  /// slot.
  Value fillSlot(Value g, Value bytes);
  /// The byte offset of 64 x 64 box (`consumer`, column half) of an
  /// epilogue input's step in `slot`.
  Value inputBoxOffset(Value slot, Value consumer, int64_t half) {
    return arith::AddIOp::create(
        b, loc, aOffset(slot),
        arith::AddIOp::create(
            b, loc,
            arith::MulIOp::create(b, loc, consumer, index(kInputSlabBytes)),
            index(half * kSwizzledBoxBytes)));
  }
  /// The ring step of epilogue input step number `step` (slab-major, then
  /// input) of `unit`.
  Value inputStep(const TileSchedule::Unit &unit, int64_t step) {
    return arith::AddIOp::create(
        b, loc, unit.first,
        arith::AddIOp::create(b, loc, unit.kTiles, index(step)));
  }
  /// Waits for each epilogue input step of `unit` and releases it unread.
  void releaseInputSteps(const TileSchedule::Unit &unit, Value lane);
  /// The first lane of the warp arrives on `empty` for each of `slots`: the
  /// warp is done reading them.
  void releaseSlots(ArrayRef<Value> slots, Value lane);
  /// Waits until the epilogue warpgroup's 128 threads get here (its named
  /// barrier).
  void meetEpilogueWarpgroup() {
    NVVM::BarrierOp::create(
        b, loc, Type(),
        arith::ConstantOp::create(b, loc,
                                  b.getI32IntegerAttr(kEpilogueBarrier)),
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(128)),
        NVVM::BarrierReductionAttr(), Value());
  }
  /// Waits until every lane of the warp gets here (`bar.warp.sync -1`).
  void reconvergeWarp() {
    NVVM::SyncWarpOp::create(
        b, loc, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(-1)));
  }
  /// One unit's mainloop for one consumer: ring steps first .. first +
  /// kTiles - 1, on the registers of `carried`; the wgmma of the first
  /// `issued` k-tiles (kTiles, or 1 for a consumer whose rows all lie past
  /// M: its accumulators hold no row's values, which the epilogue leaves
  /// out, and it only waits for the other k-tiles and releases them).
  /// `onIssued` runs once every wgmma is issued, before the last ones retire.
  /// Returns the accumulators, [slab][box].
  SmallVector<Value> buildMainloop(Value first, Value kTiles, Value issued,
                                   Value aRows, Value lane, ValueRange carried,
                                   function_ref<void()> onIssued);

  OpBuilder &b;
  Location loc;
  GemmOp gemm;
  const GemmKernelPlan &plan;
  Type elementType;

  // Kernel arguments.
  /// Each product's `a` tensor map, as the pointer the kernel receives,
  /// and where the plan loads slab boxes, its map of 64-row boxes.
  SmallVector<Value> aMaps, aSlabMaps;
  /// The output rows the tiles cover, and the k-tiles of a whole tile: the
  /// row argument and the static K, or for a weight gradient the static
  /// output rows and ceil(row argument / 64).
  Value rows, allKTiles;
  /// The weights' tensor maps, as the pointers the kernel receives, the
  /// products' one after the other.
  SmallVector<Value> weightMaps;
  ValueRange inputs, outputs;
  /// Per result, its tensor map when it is stored by TMA
  /// (plan.resultsStoredByTma);
  /// per epilogue input, its tensor map when it is loaded by TMA
  /// (plan.boxInputs).
  SmallVector<Value> resultMaps, inputMaps;
  /// The split kernel's counters and partial accumulators
  /// (plan.scratchBytes()).
  Value scratch;
  // Values of the setup.
  Value tid, warpgroup, smem, full, empty, turn, handOffFull, handOffEmpty,
      epilogueInputFull;
  /// The CTA's units and their order, emitted anew by each warpgroup role
  /// after its setmaxnreg, so that its values live in that role's
  /// registers only (the producer has 24).
  std::optional<TileSchedule> schedule;
};
} // namespace

Value GemmKernelBuilder::view(Value byteOffset, int64_t rows, Type element) {
  return memref::ViewOp::create(b, loc, boxType(rows, element), smem,
                                byteOffset, ValueRange());
}

Value GemmKernelBuilder::descriptor(Value byteOffset, int64_t rows) {
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, view(byteOffset, rows));
  Value bits = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  Value start = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, i64(4)), i64(0x3FFF));
  // Bits 62-63: 128-byte swizzle; 32-45: stride 1024 >> 4; 16-29: leading
  // byte offset 1 (unused for swizzled K-major operands).
  int64_t fixed =
      (int64_t(1) << 62) | (int64_t(1024 >> 4) << 32) | (int64_t(1) << 16);
  return arith::OrIOp::create(b, loc, start, i64(fixed));
}

Value GemmKernelBuilder::mnMajorDescriptor(Value byteOffset) {
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(
      b, loc, view(byteOffset, kTileK));
  Value bits = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  Value start = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, i64(4)), i64(0x3FFF));
  int64_t fixed = (int64_t(1) << 62) | (int64_t(1024 >> 4) << 32) |
                  (int64_t(kMNMajorAtomBytes >> 4) << 16);
  return arith::OrIOp::create(b, loc, start, i64(fixed));
}

void GemmKernelBuilder::waitParity(Value barriers, Value slot, Value phase) {
  Value parity = arith::IndexCastOp::create(
      b, loc, b.getI1Type(), arith::RemUIOp::create(b, loc, phase, index(2)));
  nvgpu::MBarrierTryWaitParityOp::create(b, loc, barriers, parity,
                                         index(10000000), slot);
}

void GemmKernelBuilder::buildSetup() {
  MLIRContext *context = b.getContext();
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  warpgroup = arith::DivUIOp::create(b, loc, tid, index(128));

  // The dynamic shared memory: an extern array that the PTX declares
  // 1 KiB-aligned (the swizzle atom), so slot offsets are from its start.
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  auto globalType = MemRefType::get({0}, b.getI8Type(),
                                    MemRefLayoutAttrInterface(), workgroup);
  Value global = memref::GetGlobalOp::create(b, loc, globalType, "coda_smem");
  smem = memref::CastOp::create(
      b, loc,
      MemRefType::get({ShapedType::kDynamic}, b.getI8Type(),
                      MemRefLayoutAttrInterface(), workgroup),
      global);

  // `full[s]` completes when slot s has landed (the producer's arrive and
  // the TMA bytes); `empty[s]` when every warp that reads it has retired
  // its wgmma; `turn[c]` when the other consumer has issued a tile's wgmma
  // (ping-pong).
  auto ringType =
      nvgpu::MBarrierGroupType::get(context, workgroup, plan.stages);
  full = nvgpu::MBarrierCreateOp::create(b, loc, ringType);
  empty = nvgpu::MBarrierCreateOp::create(b, loc, ringType);
  turn = nvgpu::MBarrierCreateOp::create(
      b, loc,
      nvgpu::MBarrierGroupType::get(context, workgroup, plan.consumers));
  // `handOffFull[c]` completes when consumer c's 128 threads have written a
  // tile to the hand-off buffer, `handOffEmpty[c]` when the epilogue
  // warpgroup's have read it.
  if (plan.hasEpilogueWarpgroup()) {
    auto handOffType =
        nvgpu::MBarrierGroupType::get(context, workgroup, plan.consumers);
    handOffFull = nvgpu::MBarrierCreateOp::create(b, loc, handOffType);
    handOffEmpty = nvgpu::MBarrierCreateOp::create(b, loc, handOffType);
  }
  // `epilogueInputFull` completes when the epilogue warpgroup's input
  // buffer has landed.
  if (plan.epilogueInputBytes())
    epilogueInputFull = nvgpu::MBarrierCreateOp::create(
        b, loc, nvgpu::MBarrierGroupType::get(context, workgroup, 1));
  Value isThread0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, index(0));
  scf::IfOp::create(b, loc, isThread0, [&](OpBuilder &, Location) {
    for (int64_t slot = 0; slot < plan.stages; ++slot) {
      nvgpu::MBarrierInitOp::create(b, loc, full, index(1), index(slot),
                                    Value());
      nvgpu::MBarrierInitOp::create(b, loc, empty,
                                    index(plan.consumersPerTile() * 4),
                                    index(slot), Value());
    }
    for (int64_t consumer = 0; consumer < plan.consumers; ++consumer) {
      nvgpu::MBarrierInitOp::create(b, loc, turn, index(4), index(consumer),
                                    Value());
      if (!plan.hasEpilogueWarpgroup())
        continue;
      for (Value handOff : {handOffFull, handOffEmpty})
        nvgpu::MBarrierInitOp::create(b, loc, handOff, index(128),
                                      index(consumer), Value());
    }
    if (epilogueInputFull)
      nvgpu::MBarrierInitOp::create(b, loc, epilogueInputFull, index(1),
                                    index(0), Value());
    auto prefetch = [&](ArrayRef<Value> pointers, int64_t boxRows) {
      for (Value pointer : pointers)
        nvgpu::TmaPrefetchOp::create(b, loc,
                                     UnrealizedConversionCastOp::create(
                                         b, loc, mapType(boxRows), pointer)
                                         .getResult(0),
                                     Value());
    };
    prefetch(aMaps, plan.aMapRows());
    prefetch(aSlabMaps, 64);
    prefetch(weightMaps, plan.weightMapRows());
    scf::YieldOp::create(b, loc);
  });
  NVVM::FenceMbarrierInitOp::create(b, loc);
  gpu::BarrierOp::create(b, loc);
}

std::pair<Value, Value> GemmKernelBuilder::ringPosition(Value g) {
  return {arith::RemUIOp::create(b, loc, g, index(plan.stages)),
          arith::DivUIOp::create(b, loc, g, index(plan.stages))};
}

Value GemmKernelBuilder::fillSlot(Value g, Value bytes) {
  Value slot, fill;
  std::tie(slot, fill) = ringPosition(g);
  Value refill = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, g,
                                       index(plan.stages));
  scf::IfOp::create(b, loc, refill, [&](OpBuilder &, Location) {
    waitParity(empty, slot, arith::SubIOp::create(b, loc, fill, index(1)));
    scf::YieldOp::create(b, loc);
  });
  nvgpu::MBarrierArriveExpectTxOp::create(b, loc, full, bytes, slot, Value());
  return slot;
}

void GemmKernelBuilder::releaseSlots(ArrayRef<Value> slots, Value lane) {
  Value firstLane =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane, index(0));
  scf::IfOp::create(b, loc, firstLane, [&](OpBuilder &, Location) {
    for (Value slot : slots)
      nvgpu::MBarrierArriveOp::create(
          b, loc, nvgpu::MBarrierTokenType::get(b.getContext()), empty, slot);
    scf::YieldOp::create(b, loc);
  });
}

std::pair<Value, Value> GemmKernelBuilder::boxSource(Value n0, int64_t box,
                                                     unsigned product) {
  // The accumulator column of the box's first row: n0 plus the base of the
  // tile's range.
  Value base = index(plan.ranges.front().bases[box]);
  for (const EpilogueRange &range : llvm::drop_begin(plan.ranges))
    base = arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, n0,
                              index(range.start)),
        index(range.bases[box]), base);
  Value column = arith::AddIOp::create(b, loc, n0, base);
  // The weight that holds it, and the row there.
  ArrayRef<Value> weights =
      ArrayRef(weightMaps)
          .slice(product * plan.weightStarts.size(), plan.weightStarts.size());
  Value map = weights.front();
  Value row = column;
  for (auto [weight, start] :
       llvm::drop_begin(llvm::enumerate(plan.weightStarts))) {
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                         column, index(start));
    map = arith::SelectOp::create(b, loc, inside, weights[weight], map);
    row = arith::SelectOp::create(
        b, loc, inside, arith::SubIOp::create(b, loc, column, index(start)),
        row);
  }
  return {map, row};
}

void GemmKernelBuilder::loadBox(Value map, ValueRange coordinates,
                                Value byteOffset, int64_t rows, Value slot,
                                Type element, Value barriers) {
  nvgpu::TmaAsyncLoadOp::create(b, loc, view(byteOffset, rows, element),
                                barriers ? barriers : full, map, coordinates,
                                slot, Value(), Value());
}

void GemmKernelBuilder::loadInputSlab(Value map, Value n0, Value row,
                                      Value byteOffset, Value slot,
                                      Value barriers) {
  Type element = cast<nvgpu::TensorMapDescriptorType>(map.getType())
                     .getTensor()
                     .getElementType();
  for (int64_t half = 0; half < 2; ++half)
    // TMA coordinates are innermost first: (column, row).
    loadBox(map, {arith::AddIOp::create(b, loc, n0, index(64 * half)), row},
            arith::AddIOp::create(b, loc, byteOffset,
                                  index(half * kSwizzledBoxBytes)),
            64, slot, element, barriers);
}

void GemmKernelBuilder::loadA(Value slot, Value k, Value m0, Value slabs,
                              Value pointer, Value slabPointer) {
  Value map = UnrealizedConversionCastOp::create(
                  b, loc, mapType(plan.aMapRows()), pointer)
                  .getResult(0);
  auto atSlab = [&](int64_t slab, int64_t bytes) {
    return arith::AddIOp::create(b, loc, aOffset(slot), index(slab * bytes));
  };
  auto slabRow = [&](int64_t slab) {
    return arith::AddIOp::create(b, loc, m0, index(slab * 64));
  };
  if (plan.reducesRows) {
    // A [K, M] `a`: each m64 slab of the tile as a box of 64 k-rows by 64
    // columns, coordinates (column, k).
    for (int64_t slab = 0; slab < plan.tileM() / 64; ++slab)
      loadBox(map, {slabRow(slab), k}, atSlab(slab, kMNMajorAtomBytes), kTileK,
              slot);
    return;
  }
  // TMA coordinates are innermost first: (k, row).
  auto loadWholeBox = [&] {
    loadBox(map, {k, m0}, aOffset(slot), plan.tileM(), slot);
  };
  if (!plan.loadsSlabBoxes())
    return loadWholeBox();
  // A tile with rows in fewer slabs than it has: those slabs' boxes, at the
  // slabs' places in the whole box (8 KiB, a multiple of the swizzle's
  // 1024-byte period, apart).
  Value slabMap =
      UnrealizedConversionCastOp::create(b, loc, mapType(64), slabPointer)
          .getResult(0);
  auto loadSlab = [&](int64_t slab) {
    loadBox(slabMap, {k, slabRow(slab)}, atSlab(slab, kSwizzledBoxBytes), 64,
            slot);
  };
  Value partial = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                        slabs, index(plan.tileM() / 64));
  scf::IfOp::create(
      b, loc, partial,
      [&](OpBuilder &, Location) {
        // A tile's first slab always holds rows.
        loadSlab(0);
        for (int64_t slab = 1; slab < plan.tileM() / 64; ++slab)
          scf::IfOp::create(b, loc,
                            arith::CmpIOp::create(b, loc,
                                                  arith::CmpIPredicate::ult,
                                                  index(slab), slabs),
                            [&](OpBuilder &, Location) {
                              loadSlab(slab);
                              scf::YieldOp::create(b, loc);
                            });
        scf::YieldOp::create(b, loc);
      },
      [&](OpBuilder &, Location) {
        loadWholeBox();
        scf::YieldOp::create(b, loc);
      });
}

void GemmKernelBuilder::loadWeights(Value slot, Value k,
                                    ArrayRef<std::pair<Value, Value>> boxes,
                                    ArrayRef<Value> offsets) {
  for (auto [source, offset] : llvm::zip_equal(boxes, offsets)) {
    Value map = UnrealizedConversionCastOp::create(
                    b, loc, mapType(plan.weightMapRows()), source.first)
                    .getResult(0);
    if (!plan.weightsMNMajor) {
      loadBox(map, {k, source.second}, offset, kTileN, slot);
      continue;
    }
    // A [K, N] weight: the box's 128 columns as two boxes of 64 k-rows by
    // 64 columns (the 128-byte swizzle's width), coordinates (column, k).
    for (int64_t half = 0; half < 2; ++half)
      loadBox(
          map,
          {arith::AddIOp::create(b, loc, source.second, index(half * kTileK)),
           k},
          arith::AddIOp::create(b, loc, offset,
                                index(half * kMNMajorAtomBytes)),
          kTileK, slot);
  }
}

void GemmKernelBuilder::loadKTile(
    Value slot, Value kTile, Value m0, Value slabs,
    ArrayRef<SmallVector<std::pair<Value, Value>>> sources) {
  // The product the k-tile belongs to, its maps, and the k-tile within it.
  Value aPointer = aMaps.front();
  Value aSlabPointer = aSlabMaps.empty() ? Value() : aSlabMaps.front();
  SmallVector<std::pair<Value, Value>> boxes(sources.front());
  Value local = kTile;
  int64_t productStart = 0;
  for (unsigned product = 1; product < aMaps.size(); ++product) {
    productStart += plan.productKTiles(product - 1);
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                         kTile, index(productStart));
    aPointer =
        arith::SelectOp::create(b, loc, inside, aMaps[product], aPointer);
    if (aSlabPointer)
      aSlabPointer = arith::SelectOp::create(b, loc, inside, aSlabMaps[product],
                                             aSlabPointer);
    local = arith::SelectOp::create(
        b, loc, inside,
        arith::SubIOp::create(b, loc, kTile, index(productStart)), local);
    for (auto [box, source] : llvm::enumerate(sources[product]))
      boxes[box] = {arith::SelectOp::create(b, loc, inside, source.first,
                                            boxes[box].first),
                    arith::SelectOp::create(b, loc, inside, source.second,
                                            boxes[box].second)};
  }
  // A split's k-tiles past the rows, and a product's last k-tile past its
  // K, read zeros.
  Value k = arith::MulIOp::create(b, loc, local, index(kTileK));
  loadA(slot, k, m0, slabs, aPointer, aSlabPointer);
  SmallVector<Value> offsets;
  for (int64_t box = 0; box < plan.boxes; ++box)
    offsets.push_back(bOffset(slot, box));
  loadWeights(slot, k, boxes, offsets);
  if (!plan.wide)
    return;
  // A wide tile's second 128 columns: the next 128 rows of the same weights
  // (the plan widens only where weights meet on 256-column boundaries).
  SmallVector<std::pair<Value, Value>> secondBoxes;
  SmallVector<Value> secondOffsets;
  for (auto [box, source] : llvm::enumerate(boxes)) {
    secondBoxes.push_back(
        {source.first,
         arith::AddIOp::create(b, loc, source.second, index(kTileN))});
    secondOffsets.push_back(secondColumnsOffset(slot, box));
  }
  loadWeights(slot, k, secondBoxes, secondOffsets);
}

void GemmKernelBuilder::buildProducer() {
  NVVM::SetMaxRegisterOp::create(b, loc,
                                 hasFourWarpgroups()
                                     ? kFourWarpgroupProducerRegisters
                                     : kProducerRegisters,
                                 NVVM::SetMaxRegisterAction::decrease);
  schedule.emplace(b, loc, plan, rows, allKTiles);
  Value isProducerThread =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, index(0));
  scf::IfOp::create(b, loc, isProducerThread, [&](OpBuilder &, Location) {
    scf::ForOp::create(
        b, loc, index(0), schedule->getCtaUnits(), index(1), ValueRange(),
        [&](OpBuilder &, Location, Value ordinal, ValueRange) {
          TileSchedule::Unit unit = schedule->unitAt(ordinal);
          Value m0 = unit.m0, n0 = unit.n0;
          // The unit's first k-tile.
          Value kStart = schedule->firstKTile(unit);
          // The m64 slabs of A it loads (all but in a last row tile), and
          // the bytes of a k-tile.
          Value slabs, kTileBytes = index(plan.stageBytes());
          if (plan.loadsSlabBoxes()) {
            slabs = schedule->slabsWithRows(unit);
            kTileBytes = arith::AddIOp::create(
                b, loc,
                arith::MulIOp::create(b, loc, slabs, index(kSwizzledBoxBytes)),
                index(plan.stageBytes() - plan.aBoxBytes()));
          }
          // A wide tile's second 128 columns take B boxes of their own.
          if (plan.wide)
            kTileBytes = arith::AddIOp::create(
                b, loc, kTileBytes, index(plan.boxes * plan.bBoxBytes()));
          SmallVector<SmallVector<std::pair<Value, Value>>> sources(
              aMaps.size());
          for (auto [product, boxes] : llvm::enumerate(sources))
            for (int64_t box = 0; box < plan.boxes; ++box)
              boxes.push_back(boxSource(n0, box, product));
          scf::ForOp::create(
              b, loc, index(0), unit.kTiles, index(1), ValueRange(),
              [&](OpBuilder &, Location, Value step, ValueRange) {
                Value g = arith::AddIOp::create(b, loc, unit.first, step);
                Value slot = fillSlot(g, kTileBytes);
                loadKTile(slot, arith::AddIOp::create(b, loc, kStart, step), m0,
                          slabs, sources);
                scf::YieldOp::create(b, loc);
              });
          // The epilogue inputs' steps: per slab, per input, every
          // consumer's 64 rows of it by the slab's 128 columns.
          TileShape shape = schedule->shapeOf();
          int64_t step = 0;
          for (int64_t slab = 0; plan.epilogueSteps() && slab < plan.slabs;
               ++slab)
            for (Value map : inputMaps) {
              if (!map)
                continue;
              Value slot =
                  fillSlot(inputStep(unit, step++), index(plan.aBoxBytes()));
              for (int64_t consumer = 0; consumer < plan.consumers;
                   ++consumer) {
                Value consumerRow = b.createOrFold<arith::AddIOp>(
                    loc, m0,
                    b.createOrFold<arith::MulIOp>(loc, index(consumer),
                                                  shape.consumerRows));
                loadInputSlab(map, shape.slabColumn(b, loc, n0, slab),
                              shape.slabRow(b, loc, consumerRow, slab),
                              inputBoxOffset(slot, index(consumer), 0), slot);
              }
            }
          scf::YieldOp::create(b, loc);
        });
    // Its last loads issued, the CTA lets the next grid launch: that grid's
    // CTAs take the SMs this grid's CTAs leave and wait for it to end.
    emitDependentsLaunch(b, loc);
    scf::YieldOp::create(b, loc);
  });
}

SmallVector<Value>
GemmKernelBuilder::buildMainloop(Value first, Value kTiles, Value issued,
                                 Value aRows, Value lane, ValueRange carried,
                                 function_ref<void()> onIssued) {
  MLIRContext *context = b.getContext();
  auto wgmmaType =
      elementType.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  // The slot of step g, released by the first lane of each warp.
  auto release = [&](Value g) { releaseSlots(ringPosition(g).first, lane); };
  // Waits until step g's slot is filled; returns the slot.
  auto waitFilled = [&](Value g) {
    Value slot, fill;
    std::tie(slot, fill) = ringPosition(g);
    waitParity(full, slot, fill);
    return slot;
  };
  // One k-tile: wait for its slot, issue slabs x boxes x 4 wgmma, keep the
  // group in flight. The tile's first k-tile overwrites the accumulators
  // (scale-d 0 on its first k16 step), so they are carried from tile to
  // tile in the same registers and never zeroed.
  auto kTile = [&](Value g, ValueRange accumulators, bool overwrite) {
    Value slot = waitFilled(g);
    Value aStart = arith::AddIOp::create(b, loc, aOffset(slot), aRows);
    Value descA = plan.reducesRows ? mnMajorDescriptor(aStart)
                                   : descriptor(aStart, plan.tileM());
    // Per slab, its A rows (the slab's 8 KiB, +512 in the address field;
    // the same rows in a wide tile) and the B boxes it reads, [slab][box]
    // (one set for every slab unless the tiles are wide).
    SmallVector<Value> slabA{descA};
    SmallVector<Value> descB;
    for (int64_t slab = 0; slab < plan.slabs; ++slab) {
      if (slab > 0)
        slabA.push_back(
            plan.wide ? descA
                      : arith::AddIOp::create(b, loc, descA, i64(512 * slab))
                            .getResult());
      if (slab > 0 && !plan.wide)
        continue;
      for (int64_t box = 0; box < plan.boxes; ++box) {
        Value offset = weightBoxOffset(slot, slab, box);
        descB.push_back(plan.weightsMNMajor ? mnMajorDescriptor(offset)
                                            : descriptor(offset, kTileN));
      }
    }

    NVVM::WgmmaFenceAlignedOp::create(b, loc);
    SmallVector<Value> next(accumulators);
    for (int64_t step = 0; step < kTileK / 16; ++step)
      for (int64_t slab = 0; slab < plan.slabs; ++slab)
        for (int64_t box = 0; box < plan.boxes; ++box) {
          // A k16 step is 32 bytes along the swizzled 128-byte row (+2 in
          // the address field), or MN-major 16 rows of 128 bytes (+128).
          Value a = arith::AddIOp::create(
              b, loc, slabA[slab], i64((plan.reducesRows ? 128 : 2) * step));
          // MN-major, a k16 step is 16 rows of 128 bytes (+128).
          Value bb = arith::AddIOp::create(
              b, loc, descB[(plan.wide ? slab * plan.boxes : 0) + box],
              i64((plan.weightsMNMajor ? 128 : 2) * step));
          auto scale = overwrite && step == 0 ? NVVM::WGMMAScaleOut::zero
                                              : NVVM::WGMMAScaleOut::one;
          Value &acc = next[slab * plan.boxes + box];
          acc = NVVM::WgmmaMmaAsyncOp::create(
              b, loc, acc.getType(), acc, a, bb,
              NVVM::MMAShapeAttr::get(context, 64, kTileN, 16),
              NVVM::WGMMATypesAttr::get(context, wgmmaType),
              NVVM::WGMMATypesAttr::get(context, wgmmaType),
              NVVM::WGMMATypesAttr::get(context, NVVM::WGMMATypes::f32),
              NVVM::WGMMAScaleOutAttr::get(context, scale),
              NVVM::WGMMAScaleInAttr::get(context, NVVM::WGMMAScaleIn::one),
              NVVM::WGMMAScaleInAttr::get(context, NVVM::WGMMAScaleIn::one),
              NVVM::MMALayoutAttr::get(context, plan.reducesRows
                                                    ? NVVM::MMALayout::col
                                                    : NVVM::MMALayout::row),
              NVVM::MMALayoutAttr::get(context, plan.weightsMNMajor
                                                    ? NVVM::MMALayout::row
                                                    : NVVM::MMALayout::col),
              NVVM::MMAIntOverflowAttr());
        }
    NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(1));
    return next;
  };

  SmallVector<Value> accumulators = kTile(first, carried, /*overwrite=*/true);
  auto loop = scf::ForOp::create(
      b, loc, index(1), issued, index(1), accumulators,
      [&](OpBuilder &, Location, Value tile, ValueRange current) {
        Value g = arith::AddIOp::create(b, loc, first, tile);
        SmallVector<Value> next = kTile(g, current, /*overwrite=*/false);
        // Group g - 1 has retired in this warp.
        release(arith::SubIOp::create(b, loc, g, index(1)));
        scf::YieldOp::create(b, loc, next);
      });
  // Unrolled, the k-tiles' descriptor arithmetic is scheduled ahead and
  // stays live into the epilogue.
  keepRolled(loop);
  onIssued();
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));
  release(arith::AddIOp::create(
      b, loc, first, arith::SubIOp::create(b, loc, issued, index(1))));
  // The k-tiles not issued: each slot is released only once it has been
  // filled, so that the arrive counts towards this fill's phase. No
  // `.aligned` instruction follows the first lane's arrive here, as a wgmma
  // does in the loop above, so the warp reconverges explicitly: a warp
  // still split when it reaches the epilogue's named barrier (bar.sync is
  // barrier.sync.aligned) would arrive there twice and hang the CTA.
  scf::ForOp::create(b, loc, issued, kTiles, index(1), ValueRange(),
                     [&](OpBuilder &, Location, Value tile, ValueRange) {
                       Value g = arith::AddIOp::create(b, loc, first, tile);
                       waitFilled(g);
                       release(g);
                       reconvergeWarp();
                       scf::YieldOp::create(b, loc);
                     });
  return loop.getResults();
}

void GemmKernelBuilder::buildConsumer() {
  MLIRContext *context = b.getContext();
  NVVM::SetMaxRegisterOp::create(b, loc,
                                 hasFourWarpgroups()
                                     ? kFourWarpgroupConsumerRegisters
                                     : kConsumerRegisters,
                                 NVVM::SetMaxRegisterAction::increase);
  schedule.emplace(b, loc, plan, rows, allKTiles);
  Value consumer = arith::SubIOp::create(b, loc, warpgroup, index(1));
  FragmentThread place = fragmentThread();
  Value thread = place.thread, lane = place.lane, rowInSlab = place.rowInSlab;
  bool pingPong = plan.schedule == GemmSchedule::PingPong;
  // Cooperative: the consumer's rows within the tile (slabs of 64 rows of
  // 128 bytes in the A box; one slab in a wide tile); ping-pong: its own
  // tiles, every other one.
  Value rowOffset =
      pingPong ? index(0)
               : arith::MulIOp::create(b, loc, consumer,
                                       index(plan.wide ? 64 : plan.slabs * 64));
  Value units = schedule->getCtaUnits();
  if (pingPong)
    units = arith::DivUIOp::create(
        b, loc,
        arith::AddIOp::create(
            b, loc,
            arith::SubIOp::create(b, loc, schedule->getCtaUnits(), consumer),
            index(1)),
        index(2));
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        consumer, index(0));
  // The warpgroup's first thread issues its TMA stores; named barriers 1
  // to plan.consumers are the consumers' own (0 is the CTA's).
  Value leader =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread, index(0));
  Value barrier = arith::IndexCastOp::create(
      b, loc, b.getI32Type(),
      arith::AddIOp::create(b, loc, consumer, index(1)));
  Value other = arith::SubIOp::create(b, loc, index(1), consumer);

  Type accType = LLVM::LLVMStructType::getLiteral(
      context, SmallVector<Type>(kTileN / 2, b.getF32Type()));
  SmallVector<Value> poison(plan.slabs * plan.boxes,
                            LLVM::PoisonOp::create(b, loc, accType));
  scf::ForOp::create(
      b, loc, index(0), units, index(1), poison,
      [&](OpBuilder &, Location, Value local, ValueRange carried) {
        Value ordinal = local;
        if (pingPong) {
          ordinal = arith::AddIOp::create(
              b, loc, arith::MulIOp::create(b, loc, local, index(2)), consumer);
          // Consumer 0's tile j follows consumer 1's tile j - 1 (phase
          // j - 1 of turn[0]); consumer 1's tile j follows consumer 0's
          // tile j (phase j of turn[1]).
          Value waits = arith::OrIOp::create(
              b, loc,
              arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, local,
                                    index(1)),
              arith::XOrIOp::create(
                  b, loc, isFirst, arith::ConstantIntOp::create(b, loc, 1, 1)));
          scf::IfOp::create(b, loc, waits, [&](OpBuilder &, Location) {
            Value phase = arith::SelectOp::create(
                b, loc, isFirst, arith::SubIOp::create(b, loc, local, index(1)),
                local);
            waitParity(turn, consumer, phase);
            scf::YieldOp::create(b, loc);
          });
        }
        TileSchedule::Unit unit = schedule->unitAt(ordinal);
        Value m0 = unit.m0, n0 = unit.n0, first = unit.first;
        Value firstRow = arith::AddIOp::create(b, loc, m0, rowOffset);
        Value rowBase = arith::AddIOp::create(b, loc, firstRow, rowInSlab);
        // Loaded before the mainloop, which hides their latency.
        RowInputValues rowInputs;
        if (!plan.hasEpilogueWarpgroup())
          rowInputs = loadRowInputs(b, loc, gemm, plan, rowBase, rows, inputs);
        // Ping-pong: once this tile's wgmma are issued, the other consumer
        // may issue its next tile's; they queue behind these.
        auto passTurn = [&] {
          if (!pingPong)
            return;
          Value firstLane = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::eq, lane, index(0));
          scf::IfOp::create(b, loc, firstLane, [&](OpBuilder &, Location) {
            nvgpu::MBarrierArriveOp::create(
                b, loc, nvgpu::MBarrierTokenType::get(context), turn, other);
            scf::YieldOp::create(b, loc);
          });
        };
        // A consumer whose rows all lie past M (the last row tile's second
        // half) issues one k-tile's wgmma. A weight gradient whose tiles
        // divide its static rows has none.
        Value issued = unit.kTiles;
        if (!plan.reducesRows || plan.outputRows % plan.tileM() != 0) {
          Value hasRows = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::ult, firstRow, rows);
          issued =
              arith::SelectOp::create(b, loc, hasRows, unit.kTiles, index(1));
        }
        SmallVector<Value> accumulators =
            buildMainloop(first, unit.kTiles, issued,
                          arith::MulIOp::create(b, loc, rowOffset, index(128)),
                          lane, carried, passTurn);

        auto runEpilogue = [&](ArrayRef<Value> accumulators) {
          EpilogueFrame frame;
          frame.shape = unit.shape;
          frame.rowBase = rowBase;
          frame.n0 = n0;
          frame.lane = lane;
          frame.quad = arith::RemUIOp::create(b, loc, lane, index(4));
          frame.rows = rows;
          frame.inputs = inputs;
          frame.outputs = outputs;
          frame.rowInputs = rowInputs;
          frame.staging = StagingFrame{
              smem,
              arith::AddIOp::create(
                  b, loc, index(plan.stages * plan.stageBytes()),
                  arith::MulIOp::create(b, loc, consumer,
                                        index(plan.stagingBytesPerConsumer()))),
              leader,
              barrier,
              firstRow,
              n0,
              rowInSlab,
              frame.quad,
              rows,
              resultMaps,
              frame.shape};
          frame.accumulator = [&](int64_t slab, int64_t box,
                                  int64_t reg) -> Value {
            return LLVM::ExtractValueOp::create(
                b, loc, accumulators[slab * plan.boxes + box], reg);
          };
          // The epilogue inputs' steps of each slab, in the producer's order:
          // the slab waits for them and reads this consumer's boxes. Each
          // range's copy of the epilogue computes its own slots.
          SmallVector<SmallVector<Value>> slabSlots(plan.slabs);
          frame.enterSlab = [&](int64_t slab) {
            slabSlots[slab].clear();
            SmallVector<std::optional<InputBoxes>> boxes(inputMaps.size());
            int64_t step = slab * plan.boxInputCount();
            for (auto [input, map] : llvm::enumerate(inputMaps)) {
              if (!map)
                continue;
              auto [slot, fill] = ringPosition(inputStep(unit, step++));
              waitParity(full, slot, fill);
              slabSlots[slab].push_back(slot);
              Value offset = inputBoxOffset(slot, consumer, 0);
              boxes[input] =
                  InputBoxes{offset, SwizzledPairs(b, loc, smem, offset,
                                                   rowInSlab, frame.quad)};
            }
            return boxes;
          };
          // Every lane's reads are done before the warp's first lane
          // releases the slots.
          frame.leaveSlab = [&](int64_t slab) {
            if (slabSlots[slab].empty())
              return;
            reconvergeWarp();
            releaseSlots(slabSlots[slab], lane);
          };
          emitEpilogue(b, loc, gemm, plan, frame);
        };
        if (plan.hasEpilogueWarpgroup()) {
          handOff(consumer, thread, local, accumulators);
        } else if (plan.splits == 1) {
          runEpilogue(accumulators);
        } else {
          SplitMeeting meeting{scratch,
                               smem,
                               schedule->getSplitCount(),
                               schedule->splitTileOf(unit),
                               consumer,
                               thread,
                               leader,
                               barrier,
                               firstRow,
                               rows};
          // A whole tile runs the epilogue on its own accumulators.
          SmallVector<Type> types{b.getI1Type()};
          for (Value accumulator : accumulators)
            types.push_back(accumulator.getType());
          auto meet =
              scf::IfOp::create(b, loc, types, schedule->isSplitUnit(unit),
                                /*withElse=*/true);
          {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPointToStart(meet.thenBlock());
            auto [isLast, sums] =
                emitSplitMeeting(b, loc, plan, meeting, accumulators);
            SmallVector<Value> results{isLast};
            llvm::append_range(results, sums);
            scf::YieldOp::create(b, loc, results);
            b.setInsertionPointToStart(meet.elseBlock());
            results.assign(
                {arith::ConstantIntOp::create(b, loc, 1, 1).getResult()});
            llvm::append_range(results, accumulators);
            scf::YieldOp::create(b, loc, results);
          }
          Value last = meet.getResult(0);
          SmallVector<Value> combined(meet.getResults().drop_front());
          // The earlier arrivals' epilogue inputs go unread.
          scf::IfOp::create(
              b, loc, last,
              [&](OpBuilder &, Location) {
                runEpilogue(combined);
                scf::YieldOp::create(b, loc);
              },
              [&](OpBuilder &, Location) {
                releaseInputSteps(unit, lane);
                scf::YieldOp::create(b, loc);
              });
        }
        // The next tile overwrites the registers; nothing is carried, so
        // the epilogue frees them as it goes.
        scf::YieldOp::create(b, loc, carried);
      });
  if (plan.stagingColumns || plan.stagesOverInputs())
    OutputStaging::drain(b, loc, leader);
}

void GemmKernelBuilder::releaseInputSteps(const TileSchedule::Unit &unit,
                                          Value lane) {
  if (plan.epilogueSteps() == 0)
    return;
  for (int64_t step = 0; step < plan.epilogueSteps(); ++step) {
    auto [slot, fill] = ringPosition(inputStep(unit, step));
    waitParity(full, slot, fill);
    releaseSlots(slot, lane);
  }
  reconvergeWarp();
}

GemmKernelBuilder::FragmentThread GemmKernelBuilder::fragmentThread() {
  Value thread = arith::RemUIOp::create(b, loc, tid, index(128));
  Value warp = arith::DivUIOp::create(b, loc, thread, index(32));
  Value lane = arith::RemUIOp::create(b, loc, thread, index(32));
  Value rowInSlab = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, warp, index(16)),
      arith::DivUIOp::create(b, loc, lane, index(4)));
  return {thread, lane, rowInSlab};
}

Value GemmKernelBuilder::handOffBuffer() {
  auto shared = LLVM::LLVMPointerType::get(
      b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  Value start = arith::IndexCastOp::create(
      b, loc, b.getI64Type(),
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, smem));
  return LLVM::GEPOp::create(b, loc, shared, b.getI8Type(),
                             LLVM::IntToPtrOp::create(b, loc, shared, start),
                             ValueRange{i64(plan.stages * plan.stageBytes())});
}

void GemmKernelBuilder::handOff(Value consumer, Value thread, Value local,
                                ArrayRef<Value> accumulators) {
  // Rounded first, so that only the stores wait for the buffer.
  Type bf16 = b.getBF16Type();
  auto groupType = VectorType::get({kHandOffGroup}, bf16);
  SmallVector<Value> groups;
  for (Value accumulator : accumulators)
    for (int64_t first = 0; first < kTileN / 2; first += kHandOffGroup) {
      Value group = LLVM::PoisonOp::create(b, loc, groupType);
      for (int64_t e = 0; e < kHandOffGroup; ++e) {
        Value value =
            LLVM::ExtractValueOp::create(b, loc, accumulator, first + e);
        Value narrow = arith::TruncFOp::create(b, loc, bf16, value);
        group = LLVM::InsertElementOp::create(
            b, loc, group, narrow,
            arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(e)));
      }
      groups.push_back(group);
    }
  // Consumer 0's tile j follows consumer 1's tile j - 1 (phase j - 1 of
  // handOffEmpty[1]); consumer 1's tile j follows consumer 0's tile j (phase
  // j of handOffEmpty[0]).
  Value isFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        consumer, index(0));
  Value waits = arith::OrIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, local, index(1)),
      arith::XOrIOp::create(b, loc, isFirst,
                            arith::ConstantIntOp::create(b, loc, 1, 1)));
  scf::IfOp::create(b, loc, waits, [&](OpBuilder &, Location) {
    Value phase = arith::SelectOp::create(
        b, loc, isFirst, arith::SubIOp::create(b, loc, local, index(1)), local);
    waitParity(handOffEmpty, arith::SubIOp::create(b, loc, index(1), consumer),
               phase);
    scf::YieldOp::create(b, loc);
  });
  Value buffer = handOffBuffer();
  for (auto [number, group] : llvm::enumerate(groups))
    LLVM::StoreOp::create(
        b, loc, group,
        getElementAddress(
            b, loc, buffer, bf16,
            arith::MulIOp::create(
                b, loc,
                arith::AddIOp::create(b, loc, index(number * 128), thread),
                index(kHandOffGroup))),
        /*alignment=*/16);
  nvgpu::MBarrierArriveOp::create(b, loc,
                                  nvgpu::MBarrierTokenType::get(b.getContext()),
                                  handOffFull, consumer);
}

SmallVector<std::optional<InputBoxes>> GemmKernelBuilder::loadEpilogueInputs(
    Value m0, Value n0, const TileShape &shape, Value consumer, int64_t slab,
    Value fill, Value leader, Value rowInSlab, Value quad) {
  Value row = shape.slabRow(
      b, loc,
      arith::AddIOp::create(
          b, loc, m0,
          arith::MulIOp::create(b, loc, consumer, shape.consumerRows)),
      slab);
  Value column = shape.slabColumn(b, loc, n0, slab);
  SmallVector<std::optional<InputBoxes>> boxes(inputMaps.size());
  SmallVector<std::pair<Value, Value>> loads;
  int64_t offset = plan.epilogueInputOffset();
  for (auto [input, map] : llvm::enumerate(inputMaps)) {
    if (!map)
      continue;
    Value at = index(offset);
    offset += kInputSlabBytes;
    boxes[input] =
        InputBoxes{at, SwizzledPairs(b, loc, smem, at, rowInSlab, quad)};
    loads.push_back({map, at});
  }
  scf::IfOp::create(b, loc, leader, [&](OpBuilder &, Location) {
    nvgpu::MBarrierArriveExpectTxOp::create(b, loc, epilogueInputFull,
                                            index(plan.epilogueInputBytes()),
                                            index(0), Value());
    for (auto [map, at] : loads)
      loadInputSlab(map, column, row, at, index(0), epilogueInputFull);
    scf::YieldOp::create(b, loc);
  });
  waitParity(epilogueInputFull, index(0), fill);
  return boxes;
}

void GemmKernelBuilder::buildEpilogueWarpgroup() {
  MLIRContext *context = b.getContext();
  NVVM::SetMaxRegisterOp::create(b, loc, kEpilogueRegisters,
                                 NVVM::SetMaxRegisterAction::increase);
  schedule.emplace(b, loc, plan, rows, allKTiles);
  FragmentThread place = fragmentThread();
  Value thread = place.thread, lane = place.lane, rowInSlab = place.rowInSlab;
  Value quad = arith::RemUIOp::create(b, loc, lane, index(4));
  Type bf16 = b.getBF16Type();
  int64_t perStruct = kTileN / 2;
  scf::ForOp::create(
      b, loc, index(0), schedule->getCtaUnits(), index(1), ValueRange(),
      [&](OpBuilder &, Location, Value local, ValueRange) {
        TileSchedule::Unit unit = schedule->unitAt(local);
        Value m0 = unit.m0, n0 = unit.n0;
        // One consumer's rows at a time; one copy of the epilogue.
        scf::ForOp::create(
            b, loc, index(0), index(plan.consumers), index(1), ValueRange(),
            [&](OpBuilder &, Location, Value consumer, ValueRange) {
              waitParity(handOffFull, consumer, local);
              // Read at once, kept 16-bit, widened where the epilogue
              // reads them.
              Value buffer = handOffBuffer();
              auto groupType = VectorType::get({kHandOffGroup}, bf16);
              SmallVector<Value> groups;
              for (int64_t group = 0;
                   group < plan.slabs * plan.boxes * perStruct / kHandOffGroup;
                   ++group)
                groups.push_back(LLVM::LoadOp::create(
                    b, loc, groupType,
                    getElementAddress(
                        b, loc, buffer, bf16,
                        arith::MulIOp::create(
                            b, loc,
                            arith::AddIOp::create(b, loc, index(group * 128),
                                                  thread),
                            index(kHandOffGroup))),
                    /*alignment=*/16));
              nvgpu::MBarrierArriveOp::create(
                  b, loc, nvgpu::MBarrierTokenType::get(context), handOffEmpty,
                  consumer);

              EpilogueFrame frame;
              frame.shape = schedule->shapeOf();
              frame.rowBase = arith::AddIOp::create(
                  b, loc,
                  arith::AddIOp::create(
                      b, loc, m0,
                      arith::MulIOp::create(b, loc, consumer,
                                            frame.shape.consumerRows)),
                  rowInSlab);
              frame.n0 = n0;
              frame.lane = lane;
              frame.quad = quad;
              frame.rows = rows;
              frame.inputs = inputs;
              frame.outputs = outputs;
              frame.rowInputs = loadRowInputs(b, loc, gemm, plan, frame.rowBase,
                                              rows, inputs);
              frame.staging.maps = resultMaps;
              // Its tile inputs by TMA, a slab at a time into one buffer:
              // plan.slabs fills per tile and consumer, and the buffer is
              // loaded again once every thread has read it.
              if (plan.epilogueInputBytes()) {
                Value leader = arith::CmpIOp::create(
                    b, loc, arith::CmpIPredicate::eq, thread, index(0));
                Value fills = arith::MulIOp::create(
                    b, loc,
                    arith::AddIOp::create(
                        b, loc,
                        arith::MulIOp::create(b, loc, local,
                                              index(plan.consumers)),
                        consumer),
                    index(plan.slabs));
                frame.enterSlab = [&, leader, fills](int64_t slab) {
                  return loadEpilogueInputs(
                      m0, n0, frame.shape, consumer, slab,
                      arith::AddIOp::create(b, loc, fills, index(slab)), leader,
                      rowInSlab, quad);
                };
                frame.leaveSlab = [&](int64_t) { meetEpilogueWarpgroup(); };
              }
              frame.pinsPartialSums = true;
              frame.accumulator = [&](int64_t slab, int64_t box,
                                      int64_t reg) -> Value {
                int64_t value = (slab * plan.boxes + box) * perStruct + reg;
                Value narrow = LLVM::ExtractElementOp::create(
                    b, loc, groups[value / kHandOffGroup],
                    arith::ConstantOp::create(
                        b, loc, b.getI32IntegerAttr(value % kHandOffGroup)));
                return arith::ExtFOp::create(b, loc, b.getF32Type(), narrow);
              };
              emitEpilogue(b, loc, gemm, plan, frame);
              scf::YieldOp::create(b, loc);
            });
        scf::YieldOp::create(b, loc);
      });
}

void GemmKernelBuilder::build(StringRef name) {
  MLIRContext *context = b.getContext();
  elementType = gemm.getFirstA().getType().getElementType();
  auto pointer = LLVM::LLVMPointerType::get(context);
  unsigned products = gemm.getNumProducts();
  unsigned aAndWeightMaps = products + gemm.getB().size();
  unsigned maps = aAndWeightMaps + (plan.loadsSlabBoxes() ? products : 0);
  SmallVector<Type> arguments(maps, pointer);
  arguments.push_back(b.getI32Type());
  arguments.append(gemm.getInputs().size() + gemm.getNumResults(), pointer);
  // A split kernel's scratch, last.
  if (plan.splits > 1)
    arguments.push_back(pointer);
  auto kernel = gpu::GPUFuncOp::create(
      b, loc, name, FunctionType::get(context, arguments, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  kernel.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({int32_t(plan.threads()), 1, 1}));
  // ptxas honours setmaxnreg only with the CTAs per SM known.
  kernel->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  b.getI32IntegerAttr(1));

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&kernel.getBody().front());
  ValueRange args = kernel.getArguments();
  // Tensor maps arrive as pointers: the GPU lowering cannot take nvgpu types
  // in a kernel signature.
  aMaps.assign(args.begin(), args.begin() + products);
  weightMaps.assign(args.begin() + products, args.begin() + aAndWeightMaps);
  aSlabMaps.assign(args.begin() + aAndWeightMaps, args.begin() + maps);
  Value rowArgument =
      arith::IndexCastOp::create(b, loc, b.getIndexType(), args[maps]);
  if (plan.reducesRows) {
    // The k-tiles per unit follow from the splits (TileSchedule).
    rows = index(plan.outputRows);
    allKTiles = arith::DivUIOp::create(
        b, loc, arith::AddIOp::create(b, loc, rowArgument, index(kTileK - 1)),
        index(kTileK));
  } else {
    rows = rowArgument;
    allKTiles = index(plan.kTiles());
  }
  unsigned inputCount = gemm.getInputs().size();
  inputs = args.slice(maps + 1, inputCount);
  outputs = args.slice(maps + 1 + inputCount, gemm.getNumResults());
  if (plan.splits > 1)
    scratch = args.back();
  // An input loaded through the ring and a staged result arrive as their
  // tensor maps, of 64 x 64 boxes.
  auto boxMaps = [&](ValueRange pointers, ValueRange tensors,
                     ArrayRef<bool> mapped) {
    SmallVector<Value> maps;
    for (auto [pointer, tensor, isMapped] :
         llvm::zip_equal(pointers, tensors, mapped))
      maps.push_back(
          isMapped
              ? UnrealizedConversionCastOp::create(
                    b, loc, mapType(64, getElementTypeOrSelf(tensor.getType())),
                    pointer)
                    .getResult(0)
              : Value());
    return maps;
  };
  inputMaps = boxMaps(inputs, gemm.getInputs(), plan.boxInputs);
  resultMaps = boxMaps(outputs, gemm.getResults(), plan.resultsStoredByTma());

  buildSetup();
  // The setup touches shared memory and the tensor maps, which the runtime
  // writes before the launches that read them; the buffers wait for the
  // grids before this one.
  emitGridDependencyWait(b, loc);
  // Warpgroup `role` runs `thenBuild`, the others `elseBuild`.
  auto branch = [&](int64_t role, function_ref<void()> thenBuild,
                    function_ref<void()> elseBuild) {
    Value isRole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                         warpgroup, index(role));
    scf::IfOp::create(
        b, loc, isRole,
        [&](OpBuilder &, Location) {
          thenBuild();
          scf::YieldOp::create(b, loc);
        },
        [&](OpBuilder &, Location) {
          elseBuild();
          scf::YieldOp::create(b, loc);
        });
  };
  branch(
      0, [&] { buildProducer(); },
      [&] {
        if (!plan.hasEpilogueWarpgroup())
          return buildConsumer();
        branch(
            1 + plan.consumers, [&] { buildEpilogueWarpgroup(); },
            [&] { buildConsumer(); });
      });
  gpu::ReturnOp::create(b, loc);
}

void mlir::coda::emitGemmKernel(OpBuilder &builder, GemmOp gemm, StringRef name,
                                const GemmKernelPlan &plan) {
  GemmKernelBuilder(builder, gemm, plan).build(name);
}
