//===- ApproximateTanh.cpp - the GPU's tanh instruction -------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ApproximateTanh.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

Value mlir::coda::buildApproximateTanh(OpBuilder &b, Location loc, Value x) {
  if (!x.getType().isF32())
    return math::TanhOp::create(b, loc, x);
  // No side effects: LLVM may combine and move it like any arithmetic.
  return LLVM::InlineAsmOp::create(b, loc, x.getType(), ValueRange{x},
                                   "tanh.approx.f32 $0, $1;", "=f,f",
                                   /*has_side_effects=*/false,
                                   /*is_align_stack=*/false,
                                   LLVM::TailCallKind::None,
                                   LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}
