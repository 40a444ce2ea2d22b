//===- ReduceKernel.cpp - kernels that finish per-tile partials -----------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ReduceKernel.h"

#include "KernelFunction.h"
#include "VectorAccess.h"

#include "GemmKernel.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::coda;

FailureOr<int64_t>
mlir::coda::checkReduceKernelSupport(ReducePartialsOp reduce) {
  if (reduce.getKind() != "sum" && reduce.getKind() != "rstd" &&
      reduce.getKind() != "mean_rstd")
    return reduce.emitError("the kernel generator finishes partials of kind "
                            "\"sum\", \"rstd\" and \"mean_rstd\" so far, "
                            "not \"")
           << reduce.getKind() << "\"";
  // The partials come from a GEMM's epilogue in tiles of its N-tile.
  auto result = dyn_cast<OpResult>(reduce.getPartials().front());
  auto gemm = result ? dyn_cast<GemmOp>(result.getOwner()) : GemmOp();
  auto partial = gemm ? gemm.getBody()
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
  Location loc = reduce.getLoc();
  OpBuilder::InsertionGuard guard(b);
  auto kernel = createRowCountKernel(
      b, loc, name, reduce->getNumOperands() + reduce->getNumResults(),
      kReduceRowsPerBlock);
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value).getResult();
  };
  Type f32 = b.getF32Type();
  auto constant = [&](double value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  };
  ValueRange args = kernel.getArguments();
  Value rows = arith::IndexCastOp::create(b, loc, b.getIndexType(), args[0]);
  ValueRange inputs = args.slice(1, reduce->getNumOperands());
  ValueRange outputs = args.drop_front(1 + reduce->getNumOperands());
  Value row = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc,
                            gpu::BlockIdOp::create(b, loc, gpu::Dimension::x),
                            index(kReduceRowsPerBlock)),
      gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rows);
  auto element = [&](Value base, Value position) {
    return getElementAddress(b, loc, base, f32, position);
  };
  // Sums `term(tile, partial values...)` over the row's partials.
  auto sumTiles = [&](function_ref<Value(Value, ArrayRef<Value>)> term) {
    Value first = arith::MulIOp::create(b, loc, row, index(partials));
    auto loop = scf::ForOp::create(
        b, loc, index(0), index(partials), index(1), ValueRange{constant(0.0)},
        [&](OpBuilder &, Location, Value tile, ValueRange sum) {
          Value position = arith::AddIOp::create(b, loc, first, tile);
          SmallVector<Value> values;
          for (Value input : inputs)
            values.push_back(
                LLVM::LoadOp::create(b, loc, f32, element(input, position)));
          scf::YieldOp::create(
              b, loc,
              arith::AddFOp::create(b, loc, sum[0], term(tile, values))
                  .getResult());
        });
    return loop.getResult(0);
  };
  scf::IfOp::create(b, loc, inside, [&](OpBuilder &, Location) {
    auto epsilon = [&] {
      return arith::ConstantOp::create(b, loc, reduce.getEpsilonAttr());
    };
    Value sum = sumTiles([](Value, ArrayRef<Value> v) { return v[0]; });
    if (reduce.getKind() == "sum") {
      LLVM::StoreOp::create(b, loc, sum, element(outputs[0], row));
    } else if (reduce.getKind() == "rstd") {
      Value count = constant(double(*reduce.getCount()));
      Value rstd = math::RsqrtOp::create(
          b, loc,
          arith::AddFOp::create(
              b, loc, arith::DivFOp::create(b, loc, sum, count), epsilon()));
      LLVM::StoreOp::create(b, loc, rstd, element(outputs[0], row));
    } else {
      // mean_rstd: var = (Σ cⱼ + Σ nⱼ (sⱼ / nⱼ − μ)²) / count, nⱼ the
      // block's columns (the last holds the rest of count).
      int64_t count = *reduce.getCount();
      int64_t tileN = reduce.getTileNOrDefault();
      Value total = constant(double(count));
      Value mean = arith::DivFOp::create(b, loc, sum, total);
      Value squares = sumTiles([&](Value tile, ArrayRef<Value> v) -> Value {
        Value columns = arith::MinUIOp::create(
            b, loc, index(tileN),
            arith::SubIOp::create(
                b, loc, index(count),
                arith::MulIOp::create(b, loc, tile, index(tileN))));
        Value n = arith::UIToFPOp::create(
            b, loc, f32,
            arith::IndexCastOp::create(b, loc, b.getI32Type(), columns));
        Value shift = arith::SubFOp::create(
            b, loc, arith::DivFOp::create(b, loc, v[0], n), mean);
        return arith::AddFOp::create(
            b, loc, v[1],
            arith::MulFOp::create(b, loc, n,
                                  arith::MulFOp::create(b, loc, shift, shift)));
      });
      Value rstd = math::RsqrtOp::create(
          b, loc,
          arith::AddFOp::create(b, loc,
                                arith::DivFOp::create(b, loc, squares, total),
                                epsilon()));
      LLVM::StoreOp::create(b, loc, mean, element(outputs[0], row));
      LLVM::StoreOp::create(b, loc, rstd, element(outputs[1], row));
    }
    scf::YieldOp::create(b, loc);
  });
  gpu::ReturnOp::create(b, loc);
}
