//===- FormMaps.cpp - elementwise ops outside GEMMs as one kernel ---------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each op that no GEMM takes runs as an elementwise kernel. An op whose
// only user is another such op need not store its result: both become one
// coda.map, whose kernel evaluates the whole tree per row from the tree's
// inputs. A concat picks its piece by column range, so it can only be the
// tree's root. A sum over each row of such a tree (the z·dz identity's
// statistic) is a map too, one that stores the row's sum alone.
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

/// Whether `op` is a standalone sum of per-row partials over all the columns
/// of its input: a `coda.partial_reduce` of sums outside any GEMM, read only
/// by a `coda.reduce_partials` of sums. A row-sum map computes the pair.
static bool isRowSumPartials(Operation *op) {
  auto partials = dyn_cast<PartialReduceOp>(op);
  if (!partials || partials.getKind() != "sum" ||
      isa<GemmOp, MapOp>(op->getParentOp()) || !op->hasOneUse())
    return false;
  auto reduce = dyn_cast<ReducePartialsOp>(*op->getUsers().begin());
  return reduce && reduce.getKind() == "sum" &&
         reduce.getPartials().size() == 1;
}

/// Whether `op` can join its user's map: a single-op elementwise kernel
/// (not a concat) whose result only that op reads, itself such a kernel or
/// the partials a row-sum map sums.
static bool joinsUser(Operation *op) {
  if (!isElementwiseKernelOp(op) || isa<ConcatOp, MapOp>(op) ||
      !op->hasOneUse())
    return false;
  Operation *user = *op->getUsers().begin();
  return user->getBlock() == op->getBlock() &&
         ((isElementwiseKernelOp(user) && !isa<MapOp>(user)) ||
          isRowSumPartials(user));
}

/// Replaces `replaced.front()` by a coda.map of result type `resultType`
/// that computes `yielded` from the ops in `seeds` and the ops that only
/// feed them, in block order; with `rowSum`, the map sums `yielded` over
/// each row. Erases the rest of `replaced` (each after its users), then
/// those ops.
static void buildMap(PatternRewriter &rewriter, ArrayRef<Operation *> replaced,
                     ArrayRef<Operation *> seeds, Value yielded,
                     Type resultType, bool rowSum) {
  llvm::SetVector<Operation *> tree;
  SmallVector<Operation *> worklist(seeds);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    tree.insert(op);
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp(); def && joinsUser(def))
        worklist.push_back(def);
  }
  SmallVector<Operation *> ops = tree.takeVector();
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  // The inputs in the order first read.
  llvm::SetVector<Value> inputs;
  for (Operation *op : ops)
    for (Value operand : op->getOperands())
      if (!llvm::is_contained(ops, operand.getDefiningOp()))
        inputs.insert(operand);
  if (ops.empty())
    inputs.insert(yielded);

  Location loc = replaced.front()->getLoc();
  auto map =
      MapOp::create(rewriter, loc, resultType, inputs.getArrayRef(), rowSum);
  Block *body = rewriter.createBlock(&map.getBody());
  IRMapping mapping;
  for (Value input : inputs)
    mapping.map(input, body->addArgument(GemmOp::getRegionType(input.getType()),
                                         input.getLoc()));
  for (Operation *op : ops) {
    Operation *clone = rewriter.clone(*op, mapping);
    clone->getResult(0).setType(
        GemmOp::getRegionType(op->getResult(0).getType()));
  }
  YieldOp::create(rewriter, loc, mapping.lookup(yielded));
  rewriter.replaceOp(replaced.front(), map.getResult());
  for (Operation *op : llvm::concat<Operation *const>(replaced.drop_front(),
                                                      llvm::reverse(ops)))
    if (op != replaced.front())
      rewriter.eraseOp(op);
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
    if (llvm::none_of(root->getOperands(), [](Value operand) {
          Operation *def = operand.getDefiningOp();
          return def && joinsUser(def);
        }))
      return rewriter.notifyMatchFailure(root, "nothing feeds it alone");
    buildMap(rewriter, root, root, root->getResult(0),
             root->getResult(0).getType(), /*rowSum=*/false);
    return success();
  }
};

/// Turns a standalone sum of a value's row into a row-sum map, with the
/// elementwise ops that only feed the value: the product r · dr of the z·dz
/// identity is then never stored.
struct FormRowSumMap : public OpRewritePattern<ReducePartialsOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ReducePartialsOp reduce,
                                PatternRewriter &rewriter) const override {
    Operation *partials = reduce.getPartials().front().getDefiningOp();
    if (!partials || !isRowSumPartials(partials))
      return rewriter.notifyMatchFailure(reduce,
                                         "not a standalone sum of a row");
    Value summed = cast<PartialReduceOp>(partials).getX();
    SmallVector<Operation *> seeds;
    if (Operation *def = summed.getDefiningOp(); def && joinsUser(def))
      seeds.push_back(def);
    buildMap(rewriter, {reduce, partials}, seeds, summed,
             reduce.getResult(0).getType(), /*rowSum=*/true);
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
  patterns.add<FormMap, FormRowSumMap>(patterns.getContext());
}
