//===- ReduceKernel.cpp - kernels that finish per-tile partials -----------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ReduceKernel.h"

#include "GemmKernel.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::coda;

FailureOr<int64_t> mlir::coda::checkReduceKernelSupport(ReducePartialsOp reduce) {
  if (reduce.getKind() != "sum" && reduce.getKind() != "rstd")
    return reduce.emitError("the kernel generator finishes partials of kind "
                            "\"sum\" and \"rstd\" so far, not \"")
           << reduce.getKind() << "\"";
  // The partials come from a GEMM's epilogue in tiles of its N-tile.
  auto result = dyn_cast<OpResult>(reduce.getPartials().front());
  auto gemm = result ? dyn_cast<GemmOp>(result.getOwner()) : GemmOp();
  auto partial =
      gemm ? gemm.getBody()
                 .getTerminator()
                 ->getOperand(result.getResultNumber())
                 .getDefiningOp<PartialReduceOp>()
           : PartialReduceOp();
  if (!partial)
    return reduce.emitError("the kernel generator finishes partials stored by "
                            "a GEMM's epilogue; these come from elsewhere");
  return llvm::divideCeil(partial.getX().getType().getDimSize(1), kTileN);
}

void mlir::coda::emitReduceKernel(OpBuilder &b, ReducePartialsOp reduce,
                                  StringRef name, int64_t partials) {
  MLIRContext *context = b.getContext();
  Location loc = reduce.getLoc();
  auto pointer = LLVM::LLVMPointerType::get(context);
  auto kernel = gpu::GPUFuncOp::create(
      b, loc, name,
      FunctionType::get(context, {b.getI32Type(), pointer, pointer}, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  kernel.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({128, 1, 1}));

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&kernel.getBody().front());
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value).getResult();
  };
  Value rows = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                          kernel.getArgument(0));
  Value row = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc,
                            gpu::BlockIdOp::create(b, loc, gpu::Dimension::x),
                            index(128)),
      gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rows);
  Type f32 = b.getF32Type();
  auto element = [&](Value base, Value position) {
    Value offset = arith::IndexCastOp::create(b, loc, b.getI64Type(), position);
    return LLVM::GEPOp::create(b, loc, pointer, f32, base, ValueRange{offset})
        .getResult();
  };
  scf::IfOp::create(b, loc, inside, [&](OpBuilder &, Location) {
    Value first = arith::MulIOp::create(b, loc, row, index(partials));
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    auto loop = scf::ForOp::create(
        b, loc, index(0), index(partials), index(1), ValueRange{zero},
        [&](OpBuilder &, Location, Value tile, ValueRange sum) {
          Value position = arith::AddIOp::create(b, loc, first, tile);
          Value value = LLVM::LoadOp::create(
              b, loc, f32, element(kernel.getArgument(1), position));
          scf::YieldOp::create(
              b, loc, arith::AddFOp::create(b, loc, sum[0], value).getResult());
        });
    Value result = loop.getResult(0);
    if (reduce.getKind() == "rstd") {
      double count = static_cast<double>(*reduce.getCount());
      Value mean = arith::DivFOp::create(
          b, loc, result,
          arith::ConstantOp::create(b, loc, b.getF32FloatAttr(count)));
      Value shifted = arith::AddFOp::create(
          b, loc, mean,
          arith::ConstantOp::create(b, loc, reduce.getEpsilonAttr()));
      result = math::RsqrtOp::create(b, loc, shifted);
    }
    LLVM::StoreOp::create(b, loc, result, element(kernel.getArgument(2), row));
    scf::YieldOp::create(b, loc);
  });
  gpu::ReturnOp::create(b, loc);
}
