//===- CodaToGPU.cpp - kernels for the GEMMs of each function -------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ElementwiseKernel.h"
#include "GemmKernel.h"
#include "LossKernel.h"
#include "NormKernels.h"
#include "ReduceKernel.h"
#include "StatisticsKernel.h"
#include "coda/Conversion/Passes.h"
#include "coda/Dialect/Coda/IR/CodaDialect.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <deque>

namespace mlir::coda {
#define GEN_PASS_DEF_CONVERTCODATOGPUPASS
#include "coda/Conversion/Passes.h.inc"
} // namespace mlir::coda

using namespace mlir;
using namespace mlir::coda;

/// The `gpu.module` that holds every generated kernel.
static constexpr llvm::StringLiteral kKernelModuleName = "coda_kernels";

/// How the kernel of `op` is launched, for the launch plan: whether it may
/// start while the kernel before it finishes (dependent_launch), threads per
/// block, the tile (rows_per_tile rows of M, tiles_n tiles along N), the
/// dynamic shared memory, whether the grid is persistent (grid.x =
/// min(tiles x splits, SMs), else grid = (ceil(M / rows_per_tile),
/// tiles_n)), a split kernel's splits and scratch_bytes, and
/// for a GEMM (of kernel plan `plan`) the row extent of each tensor map's
/// box (A first, then each weight; boxes are 64 elements wide) and of each
/// result's (0: the result is a pointer), and for wide tiles the 128-column
/// tiles its partials have a column each for (partial_columns).
static DictionaryAttr getLaunchAttr(OpBuilder &builder, Operation *op,
                                    const GemmKernelPlan *plan) {
  SmallVector<NamedAttribute> fields;
  auto add = [&](StringRef name, int64_t value) {
    fields.push_back(
        builder.getNamedAttr(name, builder.getI64IntegerAttr(value)));
  };
  // Every kernel waits for the grids before it (emitGridDependencyWait).
  fields.push_back(
      builder.getNamedAttr("dependent_launch", builder.getBoolAttr(true)));
  if (!plan) {
    // A warp per row (reductions of partials, statistics, norms, row-sum
    // maps), a warp per block of rows (norm gradients: the grid is
    // the partials' rows), a CTA per row (elementwise maps) or per 32
    // columns of all rows (sums over the rows).
    int64_t block = kElementwiseThreads, rowsPerTile = kElementwiseRowsPerBlock,
            tilesN = 1;
    if (auto map = dyn_cast<MapOp>(op); map && map.getRowSum()) {
      block = 32 * kRowSumRowsPerBlock;
      rowsPerTile = kRowSumRowsPerBlock;
    } else if (isa<NormStatisticsOp>(op)) {
      block = 32 * kStatisticsRowsPerBlock;
      rowsPerTile = kStatisticsRowsPerBlock;
    } else if (isa<ReducePartialsOp>(op)) {
      block = 32 * kReduceRowsPerBlock;
      rowsPerTile = kReduceRowsPerBlock;
    } else if (isa<RMSNormOp, LayerNormOp>(op)) {
      block = 32 * kNormRowsPerBlock;
      rowsPerTile = kNormRowsPerBlock;
    } else if (isa<RMSNormGradPartialsOp, LayerNormGradPartialsOp>(op)) {
      block = kNormGradientThreads;
      rowsPerTile = 1;
    } else if (isa<CrossEntropyFromPartialsOp, CrossEntropyRowWeightsOp>(op)) {
      // One CTA over all the rows.
      block = kLossThreads;
      rowsPerTile = INT32_MAX;
    } else if (auto sum = dyn_cast<SumRowsOp>(op)) {
      auto type = cast<RankedTensorType>(sum.getX().getType());
      block = kSumRowsThreads;
      // One CTA row covers all the rows, however many there are.
      rowsPerTile = type.isDynamicDim(0) ? INT32_MAX : type.getDimSize(0);
      tilesN = llvm::divideCeil(type.getDimSize(1), kSumRowsColumns);
    }
    add("block", block);
    fields.push_back(
        builder.getNamedAttr("persistent", builder.getBoolAttr(false)));
    add("rows_per_tile", rowsPerTile);
    add("shared_bytes", 0);
    add("tiles_n", tilesN);
    return builder.getDictionaryAttr(fields);
  }
  add("block", plan->threads());
  fields.push_back(
      builder.getNamedAttr("persistent", builder.getBoolAttr(true)));
  add("rows_per_tile", plan->tileRows());
  fields.push_back(builder.getNamedAttr(
      "schedule",
      builder.getStringAttr(stringifyGemmSchedule(plan->schedule))));
  add("shared_bytes", plan->sharedBytes());
  add("stages", plan->stages);
  auto gemm = cast<GemmOp>(op);
  SmallVector<int64_t> boxRows(gemm.getNumProducts(), plan->aMapRows());
  boxRows.append(gemm.getB().size(), plan->weightMapRows());
  // Then each product's `a` again, in the boxes of one m64 slab.
  if (plan->loadsSlabBoxes())
    boxRows.append(gemm.getNumProducts(), 64);
  fields.push_back(builder.getNamedAttr("tensor_map_rows",
                                        builder.getDenseI64ArrayAttr(boxRows)));
  // Inputs loaded through the ring and results stored by TMA arrive as
  // tensor maps of 64-row boxes.
  auto boxRowsOf = [&](ArrayRef<bool> mapped) {
    return builder.getDenseI64ArrayAttr(llvm::map_to_vector(
        mapped, [](bool isMapped) -> int64_t { return isMapped ? 64 : 0; }));
  };
  fields.push_back(builder.getNamedAttr("input_tensor_map_rows",
                                        boxRowsOf(plan->boxInputs)));
  fields.push_back(builder.getNamedAttr("result_tensor_map_rows",
                                        boxRowsOf(plan->resultsStoredByTma())));
  add("tiles_n", plan->columnTiles());
  if (plan->wide)
    add("partial_columns", plan->nTiles());
  // A split kernel runs up to splits units per tile and needs zeroed
  // scratch that outlives the launch (its counters return to zero).
  if (plan->splits > 1) {
    add("splits", plan->splits);
    add("scratch_bytes", plan->scratchBytes());
  }
  return builder.getDictionaryAttr(fields);
}

namespace {
struct ConvertCodaToGPUPass
    : public coda::impl::ConvertCodaToGPUPassBase<ConvertCodaToGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    FailureOr<std::optional<GemmSchedule>> gemmSchedule =
        parseScheduleOptions(module, schedule, stages, groupRows);
    if (failed(gemmSchedule))
      return signalPassFailure();

    // Every kernel op of each function, in order: GEMMs and the reductions
    // that finish their partials (with the number of partials per row).
    SmallVector<std::pair<func::FuncOp, SmallVector<Operation *>>> work;
    llvm::DenseMap<Operation *, int64_t> partialCounts;
    llvm::DenseMap<Operation *, GemmKernelPlan> plans;
    bool supported = true;
    for (auto func : module.getOps<func::FuncOp>()) {
      SmallVector<Operation *> kernelOps;
      // What runs between the kernels: the caller's boundaries (attention)
      // and reshapes, which are views; anything else has no kernel.
      for (Operation &op : func.getBody().getOps()) {
        if (isa<GemmOp, ReducePartialsOp, NormStatisticsOp,
                CrossEntropyFromPartialsOp, CrossEntropyRowWeightsOp,
                AttentionOp, func::ReturnOp, tensor::ExpandShapeOp,
                tensor::CollapseShapeOp>(op) ||
            !isa<CodaDialect>(op.getDialect()) || isElementwiseKernelOp(&op) ||
            isNormKernelOp(&op))
          continue;
        op.emitError("'")
            << op.getName()
            << "' outside a GEMM epilogue has no GPU kernel yet; the "
               "generator runs coda.gemm, coda.reduce_partials, "
               "coda.norm_statistics, coda.rms_norm, coda.layer_norm, "
               "coda.rms_norm_grad_partials, coda.layer_norm_grad_partials, "
               "coda.sum_rows, coda.cross_entropy_from_partials, "
               "coda.cross_entropy_row_weights, elementwise "
               "maps, slices, concats and \"half\" RoPE, row-sum maps "
               "(which coda-form-maps makes of a coda.partial_reduce of sums "
               "read only by a coda.reduce_partials of sums), and leaves "
               "coda.attention to the caller";
        supported = false;
      }
      func.walk([&](Operation *op) {
        if (auto gemm = dyn_cast<GemmOp>(op)) {
          // The op's coda.plan, when coda-plan-kernels ran, else the
          // options.
          auto fixed = readPlanAttr(gemm);
          FailureOr<GemmKernelPlan> plan = failure();
          if (succeeded(fixed))
            plan = planGemmKernel(gemm, fixed->value_or(GemmPlanChoice{
                                            *gemmSchedule, stages, std::nullopt,
                                            groupRows, std::nullopt}));
          supported &= succeeded(plan);
          if (succeeded(plan))
            plans[op] = std::move(*plan);
          kernelOps.push_back(op);
        } else if (auto statistics = dyn_cast<NormStatisticsOp>(op)) {
          supported &= succeeded(checkStatisticsKernelSupport(statistics));
          kernelOps.push_back(op);
        } else if (isElementwiseKernelOp(op)) {
          supported &= succeeded(checkElementwiseKernelSupport(op));
          kernelOps.push_back(op);
        } else if (isNormKernelOp(op)) {
          supported &= succeeded(checkNormKernelSupport(op));
          kernelOps.push_back(op);
        } else if (auto loss = dyn_cast<CrossEntropyFromPartialsOp>(op)) {
          supported &= succeeded(checkLossKernelSupport(loss));
          kernelOps.push_back(op);
        } else if (isa<CrossEntropyRowWeightsOp>(op)) {
          kernelOps.push_back(op);
        } else if (auto reduce = dyn_cast<ReducePartialsOp>(op)) {
          FailureOr<int64_t> count = checkReduceKernelSupport(reduce);
          supported &= succeeded(count);
          if (succeeded(count))
            partialCounts[op] = *count;
          kernelOps.push_back(op);
        }
      });
      if (!kernelOps.empty())
        work.push_back({func, std::move(kernelOps)});
    }
    if (!supported)
      return signalPassFailure();

    OpBuilder builder(context);
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    builder.getUnitAttr());
    auto target = NVVM::NVVMTargetAttr::get(
        context, /*optLevel=*/3, "nvptx64-nvidia-cuda", "sm_90a", "+ptx80");
    if (work.empty())
      return;
    // One kernel module for the whole input, so one PTX file holds every
    // kernel.
    builder.setInsertionPointToEnd(module.getBody());
    auto kernels =
        gpu::GPUModuleOp::create(builder, module.getLoc(), kKernelModuleName,
                                 ArrayRef<Attribute>{target});
    builder.setInsertionPointToStart(&kernels.getBodyRegion().front());
    // The dynamic shared memory: an external array ptxas aligns to 1 KiB.
    auto workgroup =
        gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
    memref::GlobalOp::create(
        builder, module.getLoc(), builder.getStringAttr("coda_smem"),
        builder.getStringAttr("public"),
        TypeAttr::get(MemRefType::get({0}, builder.getI8Type(),
                                      MemRefLayoutAttrInterface(), workgroup)),
        Attribute(), UnitAttr(), builder.getI64IntegerAttr(1024));
    // The plans of the kernels of wide tiles (GemmKernelPlan::wideKernel).
    std::deque<GemmKernelPlan> widePlans;
    for (auto &[func, kernelOps] : work) {
      unsigned gemms = 0, reductions = 0, norms = 0, maps = 0, rowKernels = 0,
               losses = 0;
      for (Operation *op : kernelOps) {
        std::string kernelName = func.getSymName().str();
        const GemmKernelPlan *plan = nullptr;
        if (auto gemm = dyn_cast<GemmOp>(op)) {
          kernelName += "_gemm" + std::to_string(gemms++);
          plan = &plans[op];
          // Over a static row count the planner widens only where wide
          // tiles fill fewer rounds: they replace the tall ones. Over a
          // dynamic one, the wide kernel stands beside the tall one, for the
          // runtime to launch where its tiles fill fewer rounds.
          bool dynamicRows =
              cast<RankedTensorType>(gemm.getA().front().getType())
                  .isDynamicDim(0);
          if (plan->widens) {
            widePlans.push_back(plan->wideKernel());
            if (!dynamicRows)
              plan = &widePlans.back();
          }
          emitGemmKernel(builder, gemm, kernelName, *plan);
          if (plan->widens && dynamicRows) {
            std::string wideName = kernelName + "_wide";
            emitGemmKernel(builder, gemm, wideName, widePlans.back());
            NamedAttrList wide(getLaunchAttr(builder, op, &widePlans.back()));
            wide.set("name", builder.getStringAttr(wideName));
            op->setAttr("coda.wide_launch", wide.getDictionary(context));
          }
        } else if (auto statistics = dyn_cast<NormStatisticsOp>(op)) {
          kernelName += "_norm" + std::to_string(norms++);
          emitStatisticsKernel(builder, statistics, kernelName);
        } else if (isNormKernelOp(op)) {
          kernelName += "_rows" + std::to_string(rowKernels++);
          emitNormKernel(builder, op, kernelName);
        } else if (isElementwiseKernelOp(op)) {
          kernelName += "_map" + std::to_string(maps++);
          emitElementwiseKernel(builder, op, kernelName);
        } else if (auto loss = dyn_cast<CrossEntropyFromPartialsOp>(op)) {
          kernelName += "_loss" + std::to_string(losses++);
          emitLossKernel(builder, loss, kernelName);
        } else if (auto weights = dyn_cast<CrossEntropyRowWeightsOp>(op)) {
          kernelName += "_loss" + std::to_string(losses++);
          emitRowWeightsKernel(builder, weights, kernelName);
        } else {
          kernelName += "_reduce" + std::to_string(reductions++);
          emitReduceKernel(builder, cast<ReducePartialsOp>(op), kernelName,
                           partialCounts[op]);
        }
        op->setAttr(
            "coda.kernel",
            SymbolRefAttr::get(builder.getStringAttr(kKernelModuleName),
                               {FlatSymbolRefAttr::get(context, kernelName)}));
        op->setAttr("coda.launch", getLaunchAttr(builder, op, plan));
      }
    }
  }
};
} // namespace
