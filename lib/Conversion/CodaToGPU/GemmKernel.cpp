//===- GemmKernel.cpp - the Hopper GEMM-epilogue kernel generator ---------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A CTA of three warpgroups computes a tile of plan.tileM() rows and 128
// output columns of `a · bᵀ`:
//
//   warpgroup 0, the producer, gives up registers (setmaxnreg 40); its
//   first thread walks the k-tiles: it waits until slot s = t % stages is
//   empty (mbarrier `empty[s]`, phase t / stages - 1), arms `full[s]` with
//   the stage's bytes, and starts the TMA boxes of k-tile t: the A box
//   (tileM rows x 64 k) and one B box per accumulator base (128 weight
//   rows x 64 k), into 128-byte-swizzled shared memory;
//   warpgroups 1 and 2, the consumers, take registers (setmaxnreg 232);
//   each owns plan.slabs m64 slabs of the tile's rows and, per k-tile,
//   waits for `full[s]`, issues slabs x boxes x 4 wgmma m64n128k16 from
//   shared-memory descriptors, keeps one group in flight, and once group
//   t - 1 has retired releases its slot (`empty`, one arrive per warp);
//   then it runs the epilogue on its registers (EpilogueEmitter).
//
// TMA fills rows and columns past the tensors with zeros; the epilogue
// predicates its stores.
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"

#include "EpilogueEmitter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::coda;

/// Registers per thread of the producer and of the consumers after
/// setmaxnreg: 128 x 40 + 256 x 232 fits the 64 Ki registers of an SM.
constexpr int32_t kProducerRegisters = 40;
constexpr int32_t kConsumerRegisters = 232;
/// Row tiles that sweep the N tiles together (the tile-order swizzle).
constexpr int64_t kGroupRows = 8;

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
  Value i64(int64_t value) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
  }
  MemRefType boxType(int64_t rows) {
    return MemRefType::get({rows, kTileK}, elementType,
                           MemRefLayoutAttrInterface(),
                           gpu::AddressSpaceAttr::get(
                               b.getContext(), gpu::AddressSpace::Workgroup));
  }
  nvgpu::TensorMapDescriptorType mapType(int64_t rows) {
    return nvgpu::TensorMapDescriptorType::get(
        b.getContext(),
        MemRefType::get({rows, kTileK}, elementType,
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
  Value view(Value byteOffset, int64_t rows);
  /// The shared-memory matrix descriptor of the box at `byteOffset`:
  /// K-major, 128-byte swizzle, 1024 bytes between 8-row groups.
  Value descriptor(Value byteOffset, int64_t rows);
  void waitParity(Value barriers, Value slot, Value phase);

  void buildSetup();
  void buildProducer();
  void buildConsumer();
  /// The weight map and first weight row of B box `box` of this CTA's tile.
  std::pair<Value, Value> boxSource(int64_t box);

  OpBuilder &b;
  Location loc;
  GemmOp gemm;
  const GemmKernelPlan &plan;
  Type elementType;

  // Kernel arguments.
  Value mapA, rows;
  /// The weights' tensor maps, as the pointers the kernel receives.
  SmallVector<Value> weightMaps;
  ValueRange inputs, outputs;
  // Values of the setup.
  Value tid, warpgroup, m0, n0, smem, pad, full, empty;
};
} // namespace

Value GemmKernelBuilder::view(Value byteOffset, int64_t rows) {
  return memref::ViewOp::create(b, loc, boxType(rows), smem,
                                arith::AddIOp::create(b, loc, byteOffset, pad),
                                ValueRange());
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
  // The tile order: CTAs are numbered along M first, and groups of
  // kGroupRows row tiles sweep the N tiles together, so a wave of CTAs
  // reads a few A row blocks and weight boxes many times from L2 instead
  // of all of A once per N tile.
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value by = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  Value rowTiles = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  Value linear = arith::AddIOp::create(
      b, loc, bx, arith::MulIOp::create(b, loc, by, rowTiles));
  Value perGroup = index(kGroupRows * plan.nTiles());
  Value group = arith::DivUIOp::create(b, loc, linear, perGroup);
  Value firstRowTile =
      arith::MulIOp::create(b, loc, group, index(kGroupRows));
  Value groupRows = arith::MinUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, rowTiles, firstRowTile),
      index(kGroupRows));
  Value inGroup = arith::RemUIOp::create(b, loc, linear, perGroup);
  Value rowTile = arith::AddIOp::create(
      b, loc, firstRowTile, arith::RemUIOp::create(b, loc, inGroup, groupRows));
  Value columnTile = arith::DivUIOp::create(b, loc, inGroup, groupRows);
  m0 = arith::MulIOp::create(b, loc, rowTile, index(plan.tileM()));
  n0 = arith::MulIOp::create(b, loc, columnTile, index(kTileN));

  // The dynamic shared memory, its base rounded up to 1 KiB (the swizzle
  // atom); ptxas aligns the extern array, so the pad is 0 in practice.
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
  Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, smem);
  Value misalignment = arith::RemUIOp::create(b, loc, base, index(1024));
  pad = arith::RemUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, index(1024), misalignment),
      index(1024));

  // `full[s]` completes when slot s has landed (the producer's arrive and
  // the TMA bytes); `empty[s]` when every consumer warp has retired its
  // wgmma reads of it.
  auto barrierType =
      nvgpu::MBarrierGroupType::get(context, workgroup, plan.stages);
  full = nvgpu::MBarrierCreateOp::create(b, loc, barrierType);
  empty = nvgpu::MBarrierCreateOp::create(b, loc, barrierType);
  Value isThread0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, index(0));
  scf::IfOp::create(b, loc, isThread0, [&](OpBuilder &, Location) {
    for (int64_t slot = 0; slot < plan.stages; ++slot) {
      nvgpu::MBarrierInitOp::create(b, loc, full, index(1), index(slot),
                                    Value());
      nvgpu::MBarrierInitOp::create(b, loc, empty, index(kConsumers * 4),
                                    index(slot), Value());
    }
    nvgpu::TmaPrefetchOp::create(b, loc, mapA, Value());
    for (Value pointer : weightMaps)
      nvgpu::TmaPrefetchOp::create(
          b, loc,
          UnrealizedConversionCastOp::create(b, loc, mapType(kTileN), pointer)
              .getResult(0),
          Value());
    scf::YieldOp::create(b, loc);
  });
  NVVM::FenceMbarrierInitOp::create(b, loc);
  gpu::BarrierOp::create(b, loc);
}

std::pair<Value, Value> GemmKernelBuilder::boxSource(int64_t box) {
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
  Value map = weightMaps.front();
  Value row = column;
  for (auto [weight, start] :
       llvm::drop_begin(llvm::enumerate(plan.weightStarts))) {
    Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                         column, index(start));
    map = arith::SelectOp::create(b, loc, inside, weightMaps[weight], map);
    row = arith::SelectOp::create(
        b, loc, inside, arith::SubIOp::create(b, loc, column, index(start)),
        row);
  }
  return {map, row};
}

void GemmKernelBuilder::buildProducer() {
  NVVM::SetMaxRegisterOp::create(b, loc, kProducerRegisters,
                                 NVVM::SetMaxRegisterAction::decrease);
  Value isProducerThread =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, index(0));
  scf::IfOp::create(b, loc, isProducerThread, [&](OpBuilder &, Location) {
    SmallVector<std::pair<Value, Value>> sources;
    for (int64_t box = 0; box < plan.boxes; ++box) {
      auto [pointer, row] = boxSource(box);
      Value map =
          UnrealizedConversionCastOp::create(b, loc, mapType(kTileN), pointer)
              .getResult(0);
      sources.push_back({map, row});
    }
    scf::ForOp::create(
        b, loc, index(0), index(plan.kTiles()), index(1), ValueRange(),
        [&](OpBuilder &, Location, Value tile, ValueRange) {
          Value slot = arith::RemUIOp::create(b, loc, tile, index(plan.stages));
          Value fill = arith::DivUIOp::create(b, loc, tile, index(plan.stages));
          Value refill = arith::CmpIOp::create(
              b, loc, arith::CmpIPredicate::uge, tile, index(plan.stages));
          scf::IfOp::create(b, loc, refill, [&](OpBuilder &, Location) {
            waitParity(empty, slot,
                       arith::SubIOp::create(b, loc, fill, index(1)));
            scf::YieldOp::create(b, loc);
          });
          nvgpu::MBarrierArriveExpectTxOp::create(
              b, loc, full, index(plan.stageBytes()), slot, Value());
          // TMA coordinates are innermost first: (k, row).
          Value k = arith::MulIOp::create(b, loc, tile, index(kTileK));
          nvgpu::TmaAsyncLoadOp::create(
              b, loc, view(aOffset(slot), plan.tileM()), full, mapA,
              ValueRange{k, m0}, slot, Value(), Value());
          for (auto [box, source] : llvm::enumerate(sources))
            nvgpu::TmaAsyncLoadOp::create(
                b, loc, view(bOffset(slot, box), kTileN), full, source.first,
                ValueRange{k, source.second}, slot, Value(), Value());
          scf::YieldOp::create(b, loc);
        });
    scf::YieldOp::create(b, loc);
  });
}

void GemmKernelBuilder::buildConsumer() {
  MLIRContext *context = b.getContext();
  NVVM::SetMaxRegisterOp::create(b, loc, kConsumerRegisters,
                                 NVVM::SetMaxRegisterAction::increase);
  Value consumer = arith::SubIOp::create(b, loc, warpgroup, index(1));
  Value thread = arith::RemUIOp::create(b, loc, tid, index(128));
  Value warp = arith::DivUIOp::create(b, loc, thread, index(32));
  Value lane = arith::RemUIOp::create(b, loc, thread, index(32));
  // The consumer's first slab in the A box: 64 rows of 128 bytes each.
  Value slabOffset = arith::MulIOp::create(b, loc, consumer,
                                           index(plan.slabs * 64 * 128));

  Type accType = LLVM::LLVMStructType::getLiteral(
      context, SmallVector<Type>(kTileN / 2, b.getF32Type()));
  Value zero = LLVM::ZeroOp::create(b, loc, accType);
  SmallVector<Value> initial(plan.slabs * plan.boxes, zero);
  auto wgmmaType =
      elementType.isBF16() ? NVVM::WGMMATypes::bf16 : NVVM::WGMMATypes::f16;
  auto loop = scf::ForOp::create(
      b, loc, index(0), index(plan.kTiles()), index(1), initial,
      [&](OpBuilder &, Location, Value tile, ValueRange carried) {
        Value slot = arith::RemUIOp::create(b, loc, tile, index(plan.stages));
        waitParity(full, slot,
                   arith::DivUIOp::create(b, loc, tile, index(plan.stages)));
        Value descA = descriptor(
            arith::AddIOp::create(b, loc, aOffset(slot), slabOffset),
            plan.tileM());
        SmallVector<Value> descB;
        for (int64_t box = 0; box < plan.boxes; ++box)
          descB.push_back(descriptor(bOffset(slot, box), kTileN));

        NVVM::WgmmaFenceAlignedOp::create(b, loc);
        SmallVector<Value> next(carried);
        for (int64_t step = 0; step < kTileK / 16; ++step)
          for (int64_t slab = 0; slab < plan.slabs; ++slab)
            for (int64_t box = 0; box < plan.boxes; ++box) {
              // A k16 step is 32 bytes along the swizzled 128-byte row (+2
              // in the address field); a slab is 8 KiB (+512).
              Value a = arith::AddIOp::create(b, loc, descA,
                                              i64(512 * slab + 2 * step));
              Value bb =
                  arith::AddIOp::create(b, loc, descB[box], i64(2 * step));
              Value &acc = next[slab * plan.boxes + box];
              acc = NVVM::WgmmaMmaAsyncOp::create(
                  b, loc, accType, acc, a, bb,
                  NVVM::MMAShapeAttr::get(context, 64, kTileN, 16),
                  NVVM::WGMMATypesAttr::get(context, wgmmaType),
                  NVVM::WGMMATypesAttr::get(context, wgmmaType),
                  NVVM::WGMMATypesAttr::get(context, NVVM::WGMMATypes::f32),
                  NVVM::WGMMAScaleOutAttr::get(context,
                                               NVVM::WGMMAScaleOut::one),
                  NVVM::WGMMAScaleInAttr::get(context,
                                              NVVM::WGMMAScaleIn::one),
                  NVVM::WGMMAScaleInAttr::get(context,
                                              NVVM::WGMMAScaleIn::one),
                  NVVM::MMALayoutAttr::get(context, NVVM::MMALayout::row),
                  NVVM::MMALayoutAttr::get(context, NVVM::MMALayout::col),
                  NVVM::MMAIntOverflowAttr());
            }
        NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
        NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(1));

        // Group tile - 1 has retired in this warp: its first lane releases
        // the slot.
        Value release = arith::AndIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, tile,
                                  index(1)),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                  index(0)));
        scf::IfOp::create(b, loc, release, [&](OpBuilder &, Location) {
          Value previous = arith::RemUIOp::create(
              b, loc, arith::SubIOp::create(b, loc, tile, index(1)),
              index(plan.stages));
          nvgpu::MBarrierArriveOp::create(
              b, loc, nvgpu::MBarrierTokenType::get(context), empty, previous);
          scf::YieldOp::create(b, loc);
        });
        scf::YieldOp::create(b, loc, next);
      });
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));

  EpilogueFrame frame;
  Value rowInSlab = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, warp, index(16)),
      arith::DivUIOp::create(b, loc, lane, index(4)));
  frame.rowBase = arith::AddIOp::create(
      b, loc,
      arith::AddIOp::create(
          b, loc, m0,
          arith::MulIOp::create(b, loc, consumer, index(plan.slabs * 64))),
      rowInSlab);
  frame.n0 = n0;
  frame.quad = arith::RemUIOp::create(b, loc, lane, index(4));
  frame.rows = rows;
  frame.inputs = inputs;
  frame.outputs = outputs;
  for (int64_t slab = 0; slab < plan.slabs; ++slab)
    frame.accumulators.push_back(
        SmallVector<Value, 2>(loop.getResults().slice(slab * plan.boxes,
                                                      plan.boxes)));
  emitEpilogue(b, loc, gemm, plan, frame);
}

void GemmKernelBuilder::build(StringRef name) {
  MLIRContext *context = b.getContext();
  elementType = gemm.getA().getType().getElementType();
  auto pointer = LLVM::LLVMPointerType::get(context);
  unsigned weights = gemm.getB().size();
  SmallVector<Type> arguments(1 + weights, pointer);
  arguments.push_back(b.getI32Type());
  arguments.append(gemm.getInputs().size() + gemm.getNumResults(), pointer);
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
  mapA = UnrealizedConversionCastOp::create(b, loc, mapType(plan.tileM()),
                                            args[0])
             .getResult(0);
  weightMaps.assign(args.begin() + 1, args.begin() + 1 + weights);
  rows = arith::IndexCastOp::create(b, loc, b.getIndexType(), args[1 + weights]);
  unsigned inputCount = gemm.getInputs().size();
  inputs = args.slice(2 + weights, inputCount);
  outputs = args.drop_front(2 + weights + inputCount);

  buildSetup();
  Value isProducer = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                           warpgroup, index(0));
  scf::IfOp::create(
      b, loc, isProducer,
      [&](OpBuilder &, Location) {
        buildProducer();
        scf::YieldOp::create(b, loc);
      },
      [&](OpBuilder &, Location) {
        buildConsumer();
        scf::YieldOp::create(b, loc);
      });
  gpu::ReturnOp::create(b, loc);
}

void mlir::coda::emitGemmKernel(OpBuilder &builder, GemmOp gemm, StringRef name,
                                const GemmKernelPlan &plan) {
  GemmKernelBuilder(builder, gemm, plan).build(name);
}
