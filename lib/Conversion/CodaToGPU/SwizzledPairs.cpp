//===- SwizzledPairs.cpp - a thread's pairs in 64 x 64 swizzled boxes ----===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "SwizzledPairs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;
using namespace mlir::coda;

SwizzledPairs::SwizzledPairs(OpBuilder &b, Location loc, Value start,
                             Value rowInBox, Value quad) {
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  // Bits 4-6 of the row's address are zero (1 KiB-aligned boxes, 128-byte
  // rows), so they can hold the swizzled unit: unit 0 is rowInBox % 8, and
  // unit u of the row is that address xor 16 · u.
  Value row = arith::AddIOp::create(
      b, loc, start, arith::MulIOp::create(b, loc, rowInBox, index(128)));
  Value unit0 = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, rowInBox, index(8)), index(16));
  Value address =
      arith::AddIOp::create(b, loc, arith::AddIOp::create(b, loc, row, unit0),
                            arith::MulIOp::create(b, loc, quad, index(4)));
  threadAddress = arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
}

Value SwizzledPairs::pointer(OpBuilder &b, Location loc, int64_t pair,
                             int64_t fixed) const {
  // The unit xor-ed in, the rest as a constant offset the access folds.
  Value unit = arith::XOrIOp::create(
      b, loc, threadAddress,
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(pair * 16)));
  auto shared = LLVM::LLVMPointerType::get(
      b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  return LLVM::GEPOp::create(b, loc, shared, b.getI8Type(),
                             LLVM::IntToPtrOp::create(b, loc, shared, unit),
                             ArrayRef<LLVM::GEPArg>{int32_t(fixed)});
}
