//===- ElementwiseKernel.cpp - standalone elementwise kernels -------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The tile-local maps that no GEMM takes into its epilogue (the backward's
// residual sums, a recomputed SwiGLU): one CTA per output row, its threads
// reading and writing 16 consecutive bytes each per step, so every access
// is a coalesced vector access.
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
  // Each thread takes `lanes` consecutive columns per step, 16 bytes of the
  // widest element, when every row is a whole number of such groups (the
  // rows' starts then stay 16-byte aligned); else one.
  int64_t widest = resultType.getElementTypeBitWidth();
  for (Value operand : op->getOperands())
    widest = std::max<int64_t>(
        widest,
        cast<RankedTensorType>(operand.getType()).getElementTypeBitWidth());
  int64_t lanes = 128 / widest;
  for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults())) {
    auto type = cast<RankedTensorType>(value.getType());
    int64_t width = type.getDimSize(type.getRank() - 1);
    if (width != 1 && width % lanes != 0)
      lanes = 1;
  }
  // `lanes` elements of `type` from `base` at `position`, or one element
  // of a per-row column broadcast to all lanes.
  auto load = [&](Value base, Type type, Value position, bool broadcast) {
    if (broadcast || lanes == 1) {
      Value value =
          LLVM::LoadOp::create(b, loc, type, element(base, type, position));
      return SmallVector<Value>(lanes, value);
    }
    auto vector = VectorType::get({lanes}, type);
    Value packed = LLVM::LoadOp::create(
        b, loc, vector, element(base, type, position),
        /*alignment=*/lanes * type.getIntOrFloatBitWidth() / 8);
    SmallVector<Value> values;
    for (int64_t lane = 0; lane < lanes; ++lane)
      values.push_back(LLVM::ExtractElementOp::create(
          b, loc, packed,
          arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(lane))));
    return values;
  };
  scf::IfOp::create(b, loc, inside, [&](OpBuilder &, Location) {
    Value rowStart = arith::MulIOp::create(b, loc, row, index(columns));
    Value first = arith::MulIOp::create(
        b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x),
        index(lanes));
    scf::ForOp::create(
        b, loc, first, index(columns), index(kThreads * lanes), ValueRange(),
        [&](OpBuilder &, Location, Value column, ValueRange) {
          Value position = arith::AddIOp::create(b, loc, rowStart, column);
          SmallVector<SmallVector<Value>> operands;
          for (auto [operand, base] : llvm::zip_equal(
                   op->getOperands(), args.slice(1, op->getNumOperands()))) {
            auto type = cast<RankedTensorType>(operand.getType());
            // [M, N] by position, a vector [N] by column, a column [M, 1]
            // by row.
            bool perRow = type.getRank() == 2 && type.getDimSize(1) == 1;
            Value at = type.getRank() == 1 ? column : perRow ? row : position;
            operands.push_back(load(base, type.getElementType(), at, perRow));
          }
          Type resultElement = resultType.getElementType();
          SmallVector<Value> results;
          for (int64_t lane = 0; lane < lanes; ++lane) {
            SmallVector<Value> values;
            for (SmallVector<Value> &laneValues : operands) {
              Value value = laneValues[lane];
              if (value.getType() != f32)
                value = arith::ExtFOp::create(b, loc, f32, value);
              values.push_back(value);
            }
            Value result = buildElementwiseScalar(b, loc, op, values);
            if (resultElement != f32)
              result = arith::TruncFOp::create(b, loc, resultElement, result);
            results.push_back(result);
          }
          Value out = element(args.back(), resultElement, position);
          if (lanes == 1) {
            LLVM::StoreOp::create(b, loc, results.front(), out);
          } else {
            Value packed = LLVM::UndefOp::create(
                b, loc, VectorType::get({lanes}, resultElement));
            for (auto [lane, result] : llvm::enumerate(results))
              packed = LLVM::InsertElementOp::create(
                  b, loc, packed, result,
                  arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(lane)));
            LLVM::StoreOp::create(b, loc, packed, out,
                                  /*alignment=*/lanes *
                                      resultType.getElementTypeBitWidth() / 8);
          }
          scf::YieldOp::create(b, loc);
        });
    scf::YieldOp::create(b, loc);
  });
  gpu::ReturnOp::create(b, loc);
}
