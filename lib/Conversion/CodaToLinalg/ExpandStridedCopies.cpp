//===- ExpandStridedCopies.cpp - strided memref copies as linalg.copy -----===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CPU reference path's JIT-compiled code should need nothing beyond the
// C library and libm, so that coda-run runs wherever it is copied. memref.copy
// lowers to memcpy when both sides are contiguous and to a call to the C
// runner utilities' memrefCopy otherwise; the latter become linalg.copy here,
// and loops later.
//
//===----------------------------------------------------------------------===//

#include "coda/Conversion/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::coda {
#define GEN_PASS_DEF_CODAEXPANDSTRIDEDCOPIESPASS
#include "coda/Conversion/Passes.h.inc"
} // namespace mlir::coda

using namespace mlir;

namespace {
/// Whether memref-to-LLVM lowers a copy from or to `type` as a memcpy.
bool lowersToMemcpy(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && (memref.getLayout().isIdentity() ||
                    memref::isStaticShapeAndContiguousRowMajor(memref));
}

struct StridedCopyToLinalg : public OpRewritePattern<memref::CopyOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(memref::CopyOp copy,
                                PatternRewriter &rewriter) const override {
    if (lowersToMemcpy(copy.getSource().getType()) &&
        lowersToMemcpy(copy.getTarget().getType()))
      return rewriter.notifyMatchFailure(copy, "lowers to memcpy");
    rewriter.replaceOpWithNewOp<linalg::CopyOp>(copy, copy.getSource(),
                                                copy.getTarget());
    return success();
  }
};

struct CodaExpandStridedCopiesPass
    : public coda::impl::CodaExpandStridedCopiesPassBase<
          CodaExpandStridedCopiesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<StridedCopyToLinalg>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
