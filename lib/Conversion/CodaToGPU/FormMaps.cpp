//===- FormMaps.cpp - elementwise ops outside GEMMs as one kernel ---------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each op that no GEMM takes runs as an elementwise kernel. An op whose
// only user is another such op need not store its result: both become one
// coda.map, whose kernel evaluates the whole tree per row from the tree's
// inputs. A concat picks its piece by column range, so it can only be the
// tree's root.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseKernel.h"
#include "coda/Conversion/CodaToGPU.h"
#include "coda/Conversion/Passes.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::coda {
#define GEN_PASS_DEF_CODAFORMMAPSPASS
#include "coda/Conversion/Passes.h.inc"
} // namespace mlir::coda

using namespace mlir;
using namespace mlir::coda;

/// Whether `op` can join its user's map: a single-op elementwise kernel
/// (not a concat) whose result only that op reads, itself such a kernel.
static bool joinsUser(Operation *op) {
  if (!isElementwiseKernelOp(op) || isa<ConcatOp, MapOp>(op) ||
      !op->hasOneUse())
    return false;
  Operation *user = *op->getUsers().begin();
  return user->getBlock() == op->getBlock() && isElementwiseKernelOp(user) &&
         !isa<MapOp>(user);
}

namespace {
/// Gathers a root elementwise op and the ops that only feed it into one
/// coda.map.
struct FormMap : public RewritePattern {
  FormMap(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *root,
                                PatternRewriter &rewriter) const override {
    if (!isElementwiseKernelOp(root) || isa<MapOp>(root) || joinsUser(root))
      return rewriter.notifyMatchFailure(root, "not the root of a map");
    // The tree, in block order, and its inputs in the order first read.
    llvm::SetVector<Operation *> tree;
    SmallVector<Operation *> worklist = {root};
    while (!worklist.empty()) {
      Operation *op = worklist.pop_back_val();
      tree.insert(op);
      for (Value operand : op->getOperands())
        if (Operation *def = operand.getDefiningOp(); def && joinsUser(def))
          worklist.push_back(def);
    }
    if (tree.size() == 1)
      return rewriter.notifyMatchFailure(root, "nothing feeds it alone");
    SmallVector<Operation *> ops = tree.takeVector();
    llvm::sort(
        ops, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
    llvm::SetVector<Value> inputs;
    for (Operation *op : ops)
      for (Value operand : op->getOperands())
        if (!llvm::is_contained(ops, operand.getDefiningOp()))
          inputs.insert(operand);

    Type resultType = root->getResult(0).getType();
    auto map = MapOp::create(rewriter, root->getLoc(), resultType,
                             inputs.getArrayRef());
    Block *body = rewriter.createBlock(&map.getBody());
    IRMapping mapping;
    for (Value input : inputs)
      mapping.map(input,
                  body->addArgument(GemmOp::getRegionType(input.getType()),
                                    input.getLoc()));
    for (Operation *op : ops) {
      Operation *clone = rewriter.clone(*op, mapping);
      clone->getResult(0).setType(
          GemmOp::getRegionType(op->getResult(0).getType()));
    }
    YieldOp::create(rewriter, root->getLoc(),
                    mapping.lookup(root->getResult(0)));
    rewriter.replaceOp(root, map.getResult());
    for (Operation *op : llvm::reverse(ops))
      if (op != root)
        rewriter.eraseOp(op);
    return success();
  }
};

struct CodaFormMapsPass
    : public coda::impl::CodaFormMapsPassBase<CodaFormMapsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFormMapsPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::coda::populateFormMapsPatterns(RewritePatternSet &patterns) {
  patterns.add<FormMap>(patterns.getContext());
}
