//===- VectorAccess.cpp - f32 values from and to memory -------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "VectorAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

Value mlir::coda::getElementAddress(OpBuilder &b, Location loc, Value base,
                                    Type type, Value position) {
  Value offset = arith::IndexCastOp::create(b, loc, b.getI64Type(), position);
  return LLVM::GEPOp::create(b, loc, base.getType(), type, base,
                             ValueRange{offset});
}

SmallVector<Value> mlir::coda::loadWidened(OpBuilder &b, Location loc,
                                           Value base, Type type,
                                           Value position, int64_t lanes) {
  Type f32 = b.getF32Type();
  auto widen = [&](Value value) -> Value {
    return type == f32 ? value : arith::ExtFOp::create(b, loc, f32, value);
  };
  Value address = getElementAddress(b, loc, base, type, position);
  if (lanes == 1)
    return {widen(LLVM::LoadOp::create(b, loc, type, address))};
  Value packed = LLVM::LoadOp::create(
      b, loc, VectorType::get({lanes}, type), address,
      /*alignment=*/lanes * type.getIntOrFloatBitWidth() / 8);
  SmallVector<Value> values;
  for (int64_t lane = 0; lane < lanes; ++lane)
    values.push_back(widen(LLVM::ExtractElementOp::create(
        b, loc, packed,
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(lane)))));
  return values;
}

void mlir::coda::storeNarrowed(OpBuilder &b, Location loc, ValueRange values,
                               Value base, Type type, Value position) {
  auto narrow = [&](Value value) -> Value {
    return type == value.getType()
               ? value
               : arith::TruncFOp::create(b, loc, type, value);
  };
  Value address = getElementAddress(b, loc, base, type, position);
  if (values.size() == 1) {
    LLVM::StoreOp::create(b, loc, narrow(values.front()), address);
    return;
  }
  int64_t lanes = values.size();
  Value packed = LLVM::UndefOp::create(b, loc, VectorType::get({lanes}, type));
  for (auto [lane, value] : llvm::enumerate(values))
    packed = LLVM::InsertElementOp::create(
        b, loc, packed, narrow(value),
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(int32_t(lane))));
  LLVM::StoreOp::create(b, loc, packed, address,
                        /*alignment=*/lanes * type.getIntOrFloatBitWidth() / 8);
}
