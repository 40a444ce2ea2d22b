//===- GemmKernel.cpp - the Hopper GEMM-epilogue kernel generator ---------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// One CTA = one warpgroup computing a 128x128 tile of `a · bᵀ`:
//
//   thread 0 arms mbarrier s with the bytes of k-tile t and starts two TMA
//   boxes (A: 128 rows of m x 64 k, B: 128 rows of n x 64 k) into slot
//   s = t % stages of a 128-byte-swizzled shared-memory ring;
//   every thread waits for slot s in phase (t / stages) % 2, issues
//   2 (m64 slabs) x 4 (k16 steps) wgmma.mma_async m64n128k16 from shared
//   memory descriptors, and keeps one wgmma group in flight; once group t-1
//   has retired in all four warps, thread 0 refills its slot with k-tile
//   t - 1 + stages;
//   the epilogue evaluates the GEMM's region on each accumulator register,
//   at row 16·warp + lane/4 + 8·((r/2)%2) (+64 per slab) and column
//   8·(r/4) + 2·(lane%4) + r%2 of the tile, and stores where row < M and
//   column < N. TMA fills rows and columns past the tensor with zeros.
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"

#include "coda/Dialect/Coda/Utils/ScalarMath.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace mlir::coda;

/// Bytes of one 128x64 bf16/f16 box, an A or a B slot of the ring.
constexpr int64_t kBoxBytes = kTileM * kTileK * 2;

//===----------------------------------------------------------------------===//
// What the generator takes
//===----------------------------------------------------------------------===//

namespace {
/// How an epilogue input is indexed from an output element (row, column).
enum class InputKind { Tile, RowColumn, ColumnVector };
} // namespace

/// Returns how input `type` of a GEMM with `n` columns is indexed, if it is
/// one the generator reads.
static std::optional<InputKind> getInputKind(Type type, int64_t n) {
  auto tensor = cast<RankedTensorType>(type);
  if (!isa<FloatType>(tensor.getElementType()))
    return std::nullopt;
  if (tensor.getRank() == 1 && tensor.getDimSize(0) == n)
    return InputKind::ColumnVector;
  if (tensor.getRank() == 2 && tensor.getDimSize(1) == n)
    return InputKind::Tile;
  if (tensor.getRank() == 2 && tensor.getDimSize(1) == 1)
    return InputKind::RowColumn;
  return std::nullopt;
}

LogicalResult mlir::coda::checkGemmKernelSupport(GemmOp gemm) {
  if (gemm.getALayout() != "mk" || gemm.getBLayout() != "nk")
    return gemm.emitError("the kernel generator takes a_layout = \"mk\" and "
                          "b_layout = \"nk\" so far; this GEMM has \"")
           << gemm.getALayout() << "\" and \"" << gemm.getBLayout() << "\"";
  if (gemm.getAccumulate())
    return gemm.emitError("accumulating results into inputs is not supported "
                          "by the kernel generator yet");
  if (gemm.getB().size() != 1)
    return gemm.emitError("the kernel generator takes one weight so far; "
                          "this GEMM has ")
           << gemm.getB().size();
  Type element = gemm.getA().getType().getElementType();
  if (!element.isBF16() && !element.isF16())
    return gemm.emitError("the kernel generator takes bf16 or f16 operands, "
                          "got ")
           << element;
  for (Operation &op : gemm.getBody().without_terminator()) {
    if (auto partial = dyn_cast<PartialReduceOp>(op)) {
      if (partial.getKind() != "sum" && partial.getKind() != "sum_squares")
        return op.emitError("partial reductions of kind \"")
               << partial.getKind()
               << "\" are not supported by the kernel generator yet";
      if (partial.getTileN() && *partial.getTileN() != uint64_t(kTileN))
        return op.emitError("the kernel generator reduces tiles of ")
               << kTileN << " columns, but tile_n = " << *partial.getTileN();
      if (!llvm::all_of(partial->getUsers(), llvm::IsaPred<YieldOp>))
        return op.emitError("the partials are used inside the epilogue; the "
                            "kernel generator only stores them");
      continue;
    }
    if (!hasScalarForm(&op))
      return op.emitError("'")
             << op.getName()
             << "' in an epilogue is not supported by the kernel generator "
                "yet";
  }
  int64_t n = gemm.getN();
  for (auto [index, input] : llvm::enumerate(gemm.getInputs()))
    if (!getInputKind(input.getType(), n))
      return gemm.emitError("epilogue input #")
             << index << " of type " << input.getType()
             << " is not a tile, a per-row column or a per-column vector of "
                "the output";
  auto yield = cast<YieldOp>(gemm.getBody().getTerminator());
  for (auto [index, result] : llvm::enumerate(gemm.getResults())) {
    auto type = cast<RankedTensorType>(result.getType());
    if (yield.getValues()[index].getDefiningOp<PartialReduceOp>())
      continue;
    if (type.getRank() != 2 || type.getDimSize(1) != n)
      return gemm.emitError("result #")
             << index << " of type " << type << " is not an [M, " << n
             << "] tile or the partials of a row reduction";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

namespace {
/// Builds one kernel; holds the values every part of it uses.
class GemmKernelBuilder {
public:
  GemmKernelBuilder(OpBuilder &builder, GemmOp gemm, unsigned stages)
      : b(builder), loc(gemm.getLoc()), gemm(gemm), stages(stages),
        k(gemm.getK()), n(gemm.getN()),
        kTiles(llvm::divideCeil(gemm.getK(), kTileK)) {}

  void build(StringRef name);

private:
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value i64(int64_t value) {
    return arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(value));
  }
  Type accumulatorType() {
    return LLVM::LLVMStructType::getLiteral(
        b.getContext(), SmallVector<Type>(kTileN / 2, b.getF32Type()));
  }
  MemRefType boxType() {
    return MemRefType::get({kTileM, kTileK}, elementType,
                           MemRefLayoutAttrInterface(),
                           gpu::AddressSpaceAttr::get(
                               b.getContext(), gpu::AddressSpace::Workgroup));
  }

  void buildSetup();
  /// Arms slot `slot` and starts the TMA boxes of k-tile `tile`.
  void issueLoads(Value slot, Value tile);
  Value view(Value byteOffset);
  /// The shared-memory matrix descriptor of the box at `address`: K-major,
  /// 128-byte swizzle, 1024 bytes between 8-row groups.
  Value descriptor(Value box);
  void buildMainloop();
  void buildEpilogue();
  /// Reads input `input` at (row, column) and (row, column + 1), widened to
  /// f32.
  std::pair<Value, Value> loadInputPair(unsigned input, Value row,
                                        Value column);

  OpBuilder &b;
  Location loc;
  GemmOp gemm;
  unsigned stages;
  int64_t k, n, kTiles;
  Type elementType;

  // Kernel arguments.
  Value tmaA, tmaB, rows;
  SmallVector<Value> inputs, outputs;
  // Values of the setup.
  Value tid, m0, n0, isThread0, smem, pad, barriers;
  Value acc[2];
};
} // namespace

Value GemmKernelBuilder::view(Value byteOffset) {
  return memref::ViewOp::create(b, loc, boxType(), smem,
                                arith::AddIOp::create(b, loc, byteOffset, pad),
                                ValueRange());
}

void GemmKernelBuilder::issueLoads(Value slot, Value tile) {
  Value kOffset = arith::MulIOp::create(b, loc, tile, index(kTileK));
  Value aOffset = arith::MulIOp::create(b, loc, slot, index(kBoxBytes));
  Value bOffset =
      arith::AddIOp::create(b, loc, aOffset, index(stages * kBoxBytes));
  nvgpu::MBarrierArriveExpectTxOp::create(b, loc, barriers,
                                          index(2 * kBoxBytes), slot, Value());
  // TMA coordinates are innermost first: (k, m) for A, (k, n) for B.
  nvgpu::TmaAsyncLoadOp::create(b, loc, view(aOffset), barriers, tmaA,
                                ValueRange{kOffset, m0}, slot, Value(),
                                Value());
  nvgpu::TmaAsyncLoadOp::create(b, loc, view(bOffset), barriers, tmaB,
                                ValueRange{kOffset, n0}, slot, Value(),
                                Value());
}

Value GemmKernelBuilder::descriptor(Value box) {
  Value address = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, box);
  Value bits = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
  Value start = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, i64(4)), i64(0x3FFF));
  // Bits 62-63: 128-byte swizzle; 32-45: stride 1024 >> 4; 16-29: leading
  // byte offset 1 (unused for swizzled K-major operands).
  int64_t fixed =
      (int64_t(1) << 62) | (int64_t(1024 >> 4) << 32) | (int64_t(1) << 16);
  return arith::OrIOp::create(b, loc, start, i64(fixed));
}

void GemmKernelBuilder::buildSetup() {
  MLIRContext *context = b.getContext();
  tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value bx = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value by = gpu::BlockIdOp::create(b, loc, gpu::Dimension::y);
  m0 = arith::MulIOp::create(b, loc, bx, index(kTileM));
  n0 = arith::MulIOp::create(b, loc, by, index(kTileN));
  isThread0 =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, tid, index(0));

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

  auto barrierType = nvgpu::MBarrierGroupType::get(context, workgroup, stages);
  barriers = nvgpu::MBarrierCreateOp::create(b, loc, barrierType);
  scf::IfOp::create(b, loc, isThread0, [&](OpBuilder &, Location) {
    for (unsigned slot = 0; slot < stages; ++slot)
      nvgpu::MBarrierInitOp::create(b, loc, barriers, index(1), index(slot),
                                    Value());
    nvgpu::TmaPrefetchOp::create(b, loc, tmaA, Value());
    nvgpu::TmaPrefetchOp::create(b, loc, tmaB, Value());
    scf::YieldOp::create(b, loc);
  });
  NVVM::FenceMbarrierInitOp::create(b, loc);
  gpu::BarrierOp::create(b, loc);

  // The prologue fills every slot the K loop needs.
  scf::IfOp::create(b, loc, isThread0, [&](OpBuilder &, Location) {
    for (int64_t tile = 0; tile < std::min<int64_t>(stages, kTiles); ++tile)
      issueLoads(index(tile), index(tile));
    scf::YieldOp::create(b, loc);
  });
}

void GemmKernelBuilder::buildMainloop() {
  MLIRContext *context = b.getContext();
  Type accType = accumulatorType();
  Value zero = LLVM::ZeroOp::create(b, loc, accType);
  auto loop = scf::ForOp::create(
      b, loc, index(0), index(kTiles), index(1), ValueRange{zero, zero},
      [&](OpBuilder &, Location, Value tile, ValueRange carried) {
        Value slot = arith::RemUIOp::create(b, loc, tile, index(stages));
        Value phase = arith::RemUIOp::create(
            b, loc, arith::DivUIOp::create(b, loc, tile, index(stages)),
            index(2));
        Value parity = arith::IndexCastOp::create(b, loc, b.getI1Type(), phase);
        nvgpu::MBarrierTryWaitParityOp::create(b, loc, barriers, parity,
                                               index(10000000), slot);
        Value aOffset = arith::MulIOp::create(b, loc, slot, index(kBoxBytes));
        Value bOffset =
            arith::AddIOp::create(b, loc, aOffset, index(stages * kBoxBytes));
        Value descA = descriptor(view(aOffset));
        Value descB = descriptor(view(bOffset));

        NVVM::WgmmaFenceAlignedOp::create(b, loc);
        auto wgmmaType = elementType.isBF16() ? NVVM::WGMMATypes::bf16
                                              : NVVM::WGMMATypes::f16;
        SmallVector<Value> next(carried);
        for (int64_t slab = 0; slab < 2; ++slab)
          for (int64_t step = 0; step < kTileK / 16; ++step) {
            // A k16 step is 32 bytes along the swizzled 128-byte row (+2 in
            // the address field); the second m64 slab starts 8 KiB later.
            Value a = arith::AddIOp::create(b, loc, descA,
                                            i64(512 * slab + 2 * step));
            Value bb = arith::AddIOp::create(b, loc, descB, i64(2 * step));
            next[slab] = NVVM::WgmmaMmaAsyncOp::create(
                b, loc, accType, next[slab], a, bb,
                NVVM::MMAShapeAttr::get(context, 64, kTileN, 16),
                NVVM::WGMMATypesAttr::get(context, wgmmaType),
                NVVM::WGMMATypesAttr::get(context, wgmmaType),
                NVVM::WGMMATypesAttr::get(context, NVVM::WGMMATypes::f32),
                NVVM::WGMMAScaleOutAttr::get(context, NVVM::WGMMAScaleOut::one),
                NVVM::WGMMAScaleInAttr::get(context, NVVM::WGMMAScaleIn::one),
                NVVM::WGMMAScaleInAttr::get(context, NVVM::WGMMAScaleIn::one),
                NVVM::MMALayoutAttr::get(context, NVVM::MMALayout::row),
                NVVM::MMALayoutAttr::get(context, NVVM::MMALayout::col),
                NVVM::MMAIntOverflowAttr());
          }
        NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
        NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(1));

        // Group tile-1 has retired in this warp; after the barrier in all
        // four, so its slot takes k-tile tile - 1 + stages.
        Value previous = arith::SubIOp::create(b, loc, tile, index(1));
        Value refillTile =
            arith::AddIOp::create(b, loc, previous, index(stages));
        Value refill = arith::AndIOp::create(
            b, loc,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge, tile,
                                  index(1)),
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, refillTile,
                                  index(kTiles)));
        scf::IfOp::create(b, loc, refill, [&](OpBuilder &, Location) {
          gpu::BarrierOp::create(b, loc);
          scf::IfOp::create(b, loc, isThread0, [&](OpBuilder &, Location) {
            issueLoads(arith::RemUIOp::create(b, loc, previous, index(stages)),
                       refillTile);
            scf::YieldOp::create(b, loc);
          });
          scf::YieldOp::create(b, loc);
        });
        scf::YieldOp::create(b, loc, next);
      });
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, b.getI64IntegerAttr(0));
  acc[0] = loop.getResult(0);
  acc[1] = loop.getResult(1);
}

std::pair<Value, Value>
GemmKernelBuilder::loadInputPair(unsigned input, Value row, Value column) {
  Value operand = gemm.getInputs()[input];
  auto type = cast<RankedTensorType>(operand.getType());
  Type element = type.getElementType();
  InputKind kind = *getInputKind(type, n);
  Value position = row;
  if (kind == InputKind::Tile)
    position = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, index(n)), column);
  else if (kind == InputKind::ColumnVector)
    position = column;
  Value offset = arith::IndexCastOp::create(b, loc, b.getI64Type(), position);
  auto pointer = LLVM::LLVMPointerType::get(b.getContext());
  Value address = LLVM::GEPOp::create(b, loc, pointer, element, inputs[input],
                                      ValueRange{offset});
  auto widen = [&](Value value) {
    return element.isF32()
               ? value
               : arith::ExtFOp::create(b, loc, b.getF32Type(), value)
                     .getResult();
  };
  if (kind == InputKind::RowColumn) {
    Value value = widen(LLVM::LoadOp::create(b, loc, element, address));
    return {value, value};
  }
  // Columns c and c + 1 (c even, N a multiple of 8): one aligned load.
  auto pairType = VectorType::get({2}, element);
  unsigned alignment = 2 * element.getIntOrFloatBitWidth() / 8;
  Value pair = LLVM::LoadOp::create(b, loc, pairType, address, alignment);
  Value first = LLVM::ExtractElementOp::create(
      b, loc, pair, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)));
  Value second = LLVM::ExtractElementOp::create(
      b, loc, pair, arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(1)));
  return {widen(first), widen(second)};
}

void GemmKernelBuilder::buildEpilogue() {
  Value warp = arith::DivUIOp::create(b, loc, tid, index(32));
  Value lane = arith::RemUIOp::create(b, loc, tid, index(32));
  Value quad = arith::RemUIOp::create(b, loc, lane, index(4));
  Value rowBase = arith::AddIOp::create(
      b, loc, m0,
      arith::AddIOp::create(b, loc,
                            arith::MulIOp::create(b, loc, warp, index(16)),
                            arith::DivUIOp::create(b, loc, lane, index(4))));
  Value columnBase = arith::AddIOp::create(
      b, loc, n0, arith::MulIOp::create(b, loc, quad, index(2)));
  Value nTile = arith::DivUIOp::create(b, loc, n0, index(kTileN));
  Block &body = gemm.getBody();
  auto yield = cast<YieldOp>(body.getTerminator());
  auto pointer = LLVM::LLVMPointerType::get(b.getContext());
  Type f32 = b.getF32Type();
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  auto address = [&](Type element, Value base, Value position) {
    Value offset = arith::IndexCastOp::create(b, loc, b.getI64Type(), position);
    return LLVM::GEPOp::create(b, loc, pointer, element, base,
                               ValueRange{offset})
        .getResult();
  };
  auto narrow = [&](Value value, Type element) {
    return element.isF32()
               ? value
               : arith::TruncFOp::create(b, loc, element, value).getResult();
  };

  // A thread holds two rows per m64 slab; in each, registers r and r + 1 of
  // a pair are the adjacent columns c and c + 1 (c even): one 4-byte access
  // per pair and bf16 tensor.
  for (int64_t slab = 0; slab < 2; ++slab)
    for (int64_t half = 0; half < 2; ++half) {
      Value row =
          arith::AddIOp::create(b, loc, rowBase, index(64 * slab + 8 * half));
      Value rowInside =
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rows);
      llvm::DenseMap<Operation *, Value> partialSums;
      for (Operation &op : body.without_terminator())
        if (isa<PartialReduceOp>(op))
          partialSums[&op] = zero;
      // Per-row inputs are read once per row.
      llvm::DenseMap<Value, Value> rowValues;

      for (int64_t pair = 0; pair < kTileN / 8; ++pair) {
        int64_t reg = 4 * pair + 2 * half;
        Value column =
            arith::AddIOp::create(b, loc, columnBase, index(8 * pair));
        Value inside = arith::AndIOp::create(
            b, loc, rowInside,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, column,
                                  index(n)));
        // The epilogue's values at the two elements; inputs are read on
        // first use, only inside the tensor (0 elsewhere), and the
        // arithmetic runs on every element.
        llvm::DenseMap<Value, Value> scalars[2];
        for (int64_t e = 0; e < 2; ++e)
          scalars[e][gemm.getAccumulator()] = LLVM::ExtractValueOp::create(
              b, loc, acc[slab], ArrayRef<int64_t>{reg + e});
        auto load = [&](Value value) {
          auto arg = cast<BlockArgument>(value);
          unsigned input = arg.getArgNumber() - 1;
          auto kind = *getInputKind(gemm.getInputs()[input].getType(), n);
          bool perRow = kind == InputKind::RowColumn;
          if (perRow)
            if (auto it = rowValues.find(value); it != rowValues.end()) {
              scalars[0][value] = scalars[1][value] = it->second;
              return;
            }
          auto read = scf::IfOp::create(
              b, loc, perRow ? rowInside : inside,
              [&](OpBuilder &, Location) {
                auto [first, second] = loadInputPair(input, row, column);
                scf::YieldOp::create(b, loc, ValueRange{first, second});
              },
              [&](OpBuilder &, Location) {
                scf::YieldOp::create(b, loc, ValueRange{zero, zero});
              });
          scalars[0][value] = read.getResult(0);
          scalars[1][value] = read.getResult(1);
          if (perRow)
            rowValues[value] = read.getResult(0);
        };
        auto scalarOf = [&](int64_t e, Value value) {
          if (!scalars[e].count(value))
            load(value);
          return scalars[e][value];
        };
        for (Operation &op : body.without_terminator()) {
          for (int64_t e = 0; e < 2; ++e) {
            if (auto partial = dyn_cast<PartialReduceOp>(op)) {
              Value x = scalarOf(e, partial.getX());
              Value term =
                  partial.getKind() == "sum"
                      ? x
                      : arith::MulFOp::create(b, loc, x, x).getResult();
              term = arith::SelectOp::create(b, loc, inside, term, zero);
              partialSums[&op] =
                  arith::AddFOp::create(b, loc, partialSums[&op], term);
              continue;
            }
            SmallVector<Value> args;
            for (Value operand : op.getOperands())
              args.push_back(scalarOf(e, operand));
            scalars[e][op.getResult(0)] =
                buildElementwiseScalar(b, loc, &op, args);
          }
        }
        scf::IfOp::create(b, loc, inside, [&](OpBuilder &, Location) {
          Value position = arith::AddIOp::create(
              b, loc, arith::MulIOp::create(b, loc, row, index(n)), column);
          for (auto [value, result, output] :
               llvm::zip_equal(yield.getValues(), gemm.getResults(), outputs)) {
            if (value.getDefiningOp<PartialReduceOp>())
              continue;
            Type element =
                cast<RankedTensorType>(result.getType()).getElementType();
            auto pairType = VectorType::get({2}, element);
            Value packed = LLVM::PoisonOp::create(b, loc, pairType);
            for (int64_t e = 0; e < 2; ++e)
              packed = LLVM::InsertElementOp::create(
                  b, loc, packed, narrow(scalarOf(e, value), element),
                  arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(e)));
            LLVM::StoreOp::create(b, loc, packed,
                                  address(element, output, position),
                                  2 * element.getIntOrFloatBitWidth() / 8);
          }
          scf::YieldOp::create(b, loc);
        });
      }

      // Each row's 128 columns lie in the four lanes of a quad: combine
      // them, and the quad's first lane stores the row's partial for this
      // N-tile at [row, tile] of the [M, ceil(N / 128)] partials.
      if (partialSums.empty())
        continue;
      Value first = arith::AndIOp::create(
          b, loc, rowInside,
          arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, quad,
                                index(0)));
      int64_t tiles = llvm::divideCeil(n, kTileN);
      for (auto [value, result, output] :
           llvm::zip_equal(yield.getValues(), gemm.getResults(), outputs)) {
        auto partial = value.getDefiningOp<PartialReduceOp>();
        if (!partial)
          continue;
        Value sum = partialSums[partial];
        for (int32_t offset : {1, 2})
          sum = arith::AddFOp::create(
              b, loc, sum,
              gpu::ShuffleOp::create(b, loc, sum, offset, 32,
                                     gpu::ShuffleMode::XOR)
                  .getShuffleResult());
        Value partials = output;
        scf::IfOp::create(b, loc, first, [&](OpBuilder &, Location) {
          Value position = arith::AddIOp::create(
              b, loc, arith::MulIOp::create(b, loc, row, index(tiles)), nTile);
          LLVM::StoreOp::create(b, loc, sum, address(f32, partials, position));
          scf::YieldOp::create(b, loc);
        });
      }
    }
}

void GemmKernelBuilder::build(StringRef name) {
  MLIRContext *context = b.getContext();
  elementType = gemm.getA().getType().getElementType();
  auto pointer = LLVM::LLVMPointerType::get(context);
  SmallVector<Type> arguments = {pointer, pointer, b.getI32Type()};
  arguments.append(gemm.getInputs().size() + gemm.getNumResults(), pointer);
  auto kernel = gpu::GPUFuncOp::create(
      b, loc, name, FunctionType::get(context, arguments, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  kernel.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({128, 1, 1}));

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&kernel.getBody().front());
  ValueRange args = kernel.getArguments();
  // Tensor maps arrive as pointers: the GPU lowering cannot take nvgpu types
  // in a kernel signature.
  auto mapType = nvgpu::TensorMapDescriptorType::get(
      context,
      MemRefType::get({kTileM, kTileK}, elementType,
                      MemRefLayoutAttrInterface(), b.getI64IntegerAttr(3)),
      nvgpu::TensorMapSwizzleKind::SWIZZLE_128B,
      nvgpu::TensorMapL2PromoKind::L2PROMO_256B,
      nvgpu::TensorMapOOBKind::OOB_ZERO,
      nvgpu::TensorMapInterleaveKind::INTERLEAVE_NONE);
  tmaA =
      UnrealizedConversionCastOp::create(b, loc, mapType, args[0]).getResult(0);
  tmaB =
      UnrealizedConversionCastOp::create(b, loc, mapType, args[1]).getResult(0);
  rows = arith::IndexCastOp::create(b, loc, b.getIndexType(), args[2]);
  unsigned inputCount = gemm.getInputs().size();
  inputs.assign(args.begin() + 3, args.begin() + 3 + inputCount);
  outputs.assign(args.begin() + 3 + inputCount, args.end());

  buildSetup();
  buildMainloop();
  buildEpilogue();
  gpu::ReturnOp::create(b, loc);
}

void mlir::coda::emitGemmKernel(OpBuilder &builder, GemmOp gemm, StringRef name,
                                unsigned stages) {
  GemmKernelBuilder(builder, gemm, stages).build(name);
}
