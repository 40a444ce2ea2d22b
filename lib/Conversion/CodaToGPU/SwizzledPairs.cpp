//===- SwizzledPairs.cpp - a thread's pairs in 64 x 64 swizzled boxes ----===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "SwizzledPairs.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::coda;

SwizzledPairs::SwizzledPairs(OpBuilder &b, Location loc, Value smem,
                             Value runOffset, Value rowInBox, Value quad) {
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  auto i64 = [&](Value value) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), value);
  };
  start = i64(memref::ExtractAlignedPointerAsIndexOp::create(b, loc, smem));
  this->runOffset = i64(runOffset);
  // Bits 4-6 of the row's offset from a 1 KiB boundary are zero (128-byte
  // rows), so they can hold the swizzled unit: unit 0 is rowInBox % 8, and
  // unit u of the row is that offset xor 16 · u.
  Value row = arith::MulIOp::create(b, loc, rowInBox, index(128));
  Value unit0 = arith::MulIOp::create(
      b, loc, arith::RemUIOp::create(b, loc, rowInBox, index(8)), index(16));
  threadOffset = i64(
      arith::AddIOp::create(b, loc, arith::AddIOp::create(b, loc, row, unit0),
                            arith::MulIOp::create(b, loc, quad, index(4))));
}

Value SwizzledPairs::pointer(OpBuilder &b, Location loc, int64_t pair,
                             int64_t fixed) const {
  // The pair's place, shared by every run, then the run's offset and the
  // rest as an offset the access folds where it is constant.
  Value place = arith::AddIOp::create(
      b, loc, start,
      arith::XOrIOp::create(
          b, loc, threadOffset,
          arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(pair * 16))));
  auto shared = LLVM::LLVMPointerType::get(
      b.getContext(), static_cast<unsigned>(NVVM::NVVMMemorySpace::Shared));
  Value offset = arith::AddIOp::create(
      b, loc, runOffset,
      arith::ConstantOp::create(b, loc, b.getI64IntegerAttr(fixed)));
  return LLVM::GEPOp::create(b, loc, shared, b.getI8Type(),
                             LLVM::IntToPtrOp::create(b, loc, shared, place),
                             ValueRange{offset});
}
