//===- ElementwiseKernel.cpp - standalone elementwise kernels -------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The tile-local maps that no GEMM takes into its epilogue (the backward's
// residual sums, a recomputed SwiGLU): one CTA per output row, its threads
// reading and writing consecutive columns, so every access is coalesced.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseKernel.h"

#include "coda/Dialect/Coda/Utils/ScalarMath.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::coda;

/// Threads of an elementwise kernel's CTA.
constexpr int64_t kThreads = 128;

bool mlir::coda::isElementwiseKernelOp(Operation *op) {
  if (!hasScalarForm(op) || isa<GemmOp>(op->getParentOp()) ||
      op->getNumResults() != 1)
    return false;
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType || resultType.getRank() != 2)
    return false;
  auto isFloat = [](Type type) {
    return type.isBF16() || type.isF16() || type.isF32();
  };
  if (!isFloat(resultType.getElementType()))
    return false;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type || !isFloat(type.getElementType()) || type.getRank() < 1)
      return false;
  }
  return true;
}

void mlir::coda::emitElementwiseKernel(OpBuilder &b, Operation *op,
                                       StringRef name) {
  MLIRContext *context = b.getContext();
  Location loc = op->getLoc();
  auto pointer = LLVM::LLVMPointerType::get(context);
  SmallVector<Type> arguments = {b.getI32Type()};
  arguments.append(op->getNumOperands() + 1, pointer);
  auto kernel = gpu::GPUFuncOp::create(
      b, loc, name, FunctionType::get(context, arguments, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  kernel.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({kThreads, 1, 1}));

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&kernel.getBody().front());
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value).getResult();
  };
  Type f32 = b.getF32Type();
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t columns = resultType.getDimSize(1);
  ValueRange args = kernel.getArguments();
  Value rows = arith::IndexCastOp::create(b, loc, b.getIndexType(), args[0]);
  Value row = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rows);
  auto element = [&](Value base, Type type, Value position) {
    Value offset = arith::IndexCastOp::create(b, loc, b.getI64Type(), position);
    return LLVM::GEPOp::create(b, loc, pointer, type, base, ValueRange{offset})
        .getResult();
  };
  scf::IfOp::create(b, loc, inside, [&](OpBuilder &, Location) {
    Value rowStart = arith::MulIOp::create(b, loc, row, index(columns));
    scf::ForOp::create(
        b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x),
        index(columns), index(kThreads), ValueRange(),
        [&](OpBuilder &, Location, Value column, ValueRange) {
          Value position = arith::AddIOp::create(b, loc, rowStart, column);
          SmallVector<Value> values;
          for (auto [operand, base] :
               llvm::zip_equal(op->getOperands(),
                               args.slice(1, op->getNumOperands()))) {
            auto type = cast<RankedTensorType>(operand.getType());
            // [M, N] by position, a vector [N] by column, a column [M, 1]
            // by row.
            Value at = type.getRank() == 1       ? column
                       : type.getDimSize(1) == 1 ? row
                                                 : position;
            Type elementType = type.getElementType();
            Value value = LLVM::LoadOp::create(
                b, loc, elementType, element(base, elementType, at));
            if (elementType != f32)
              value = arith::ExtFOp::create(b, loc, f32, value);
            values.push_back(value);
          }
          Value result = buildElementwiseScalar(b, loc, op, values);
          Type resultElement = resultType.getElementType();
          if (resultElement != f32)
            result = arith::TruncFOp::create(b, loc, resultElement, result);
          LLVM::StoreOp::create(
              b, loc, result, element(args.back(), resultElement, position));
          scf::YieldOp::create(b, loc);
        });
    scf::YieldOp::create(b, loc);
  });
  gpu::ReturnOp::create(b, loc);
}
