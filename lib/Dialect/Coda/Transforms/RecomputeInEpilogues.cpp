//===- RecomputeInEpilogues.cpp - recomputed values as GEMM results -------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A backward recomputes what the forward did not save (the SwiGLU output
// from its saved pre-activations, a norm from its saved scales) with a
// tile-local op on tensors it reads anyway. When a GEMM's epilogue already
// reads every tile that op reads, at the columns of its own output, the op
// is one more result of that GEMM: its operands are in registers there, so
// the recomputation costs one tile store instead of a kernel that reads the
// tiles again. Readers of the op that come before the GEMM and that nothing
// up to it depends on move after it.
//
//===----------------------------------------------------------------------===//

#include "GemmUtils.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "coda/Dialect/Coda/Transforms/Passes.h"
#include "coda/Dialect/Coda/Transforms/Patterns.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::coda {
#define GEN_PASS_DEF_CODARECOMPUTEINEPILOGUESPASS
#include "coda/Dialect/Coda/Transforms/Passes.h.inc"
} // namespace mlir::coda

using namespace mlir;
using namespace mlir::coda;

/// How an operand of an elementwise op `[M, W]` enters an epilogue.
enum class OperandKind {
  /// A tile of the op's shape: it must already be an input of the GEMM.
  Tile,
  /// A per-row column `[M, 1]` or a per-column vector `[W]`: it becomes an
  /// input when it exists before the GEMM.
  Broadcast,
  /// Anything else (another width, a table): the op stays outside.
  Other,
};

static OperandKind classify(Value operand, RankedTensorType resultType) {
  auto type = cast<RankedTensorType>(operand.getType());
  if (type.getShape() == resultType.getShape())
    return OperandKind::Tile;
  bool perRow = type.getRank() == 2 && type.getDimSize(1) == 1 &&
                type.getDimSize(0) == resultType.getDimSize(0);
  bool perColumn =
      type.getRank() == 1 && type.getDimSize(0) == resultType.getDimSize(1);
  return perRow || perColumn ? OperandKind::Broadcast : OperandKind::Other;
}

/// Whether `op` is an elementwise op on tiles of its result's shape `[M, W]`
/// (W > 1), per-row columns and per-column vectors, outside any GEMM, that
/// reads no GEMM result (coda-form-epilogues' case).
static bool isRecomputable(Operation *op) {
  if (!isTileLocalOp(op) || isa<GemmOp>(op->getParentOp()) ||
      isa<SliceOp, ConcatOp, PartialReduceOp, PartialSumRowsOp,
          PartialGatherOp>(op) ||
      op->getNumResults() != 1)
    return false;
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (resultType.getRank() != 2 || resultType.getDimSize(1) == 1)
    return false;
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    return !operand.getDefiningOp<GemmOp>() &&
           classify(operand, resultType) != OperandKind::Other;
  });
}

/// Whether `gemm` can compute the recomputable `op` in its epilogue: a
/// result of `gemm` has the type of `op`'s result (its rows and output
/// columns), every tile `op` reads is an input of `gemm`, and every other
/// operand exists before it.
static bool readsEveryTileOf(GemmOp gemm, Operation *op) {
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  if (!llvm::is_contained(gemm.getResultTypes(), resultType))
    return false;
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    if (classify(operand, resultType) == OperandKind::Tile)
      return llvm::is_contained(gemm.getInputs(), operand);
    return isDefinedBefore(operand, gemm);
  });
}

/// The users of `op`'s result before `gemm`, as ops of their block, in
/// block order, when each can move to just after `gemm`: nothing up to
/// `gemm` reads its results (so `gemm` does not depend on it). None when one
/// cannot.
static std::optional<SmallVector<Operation *>>
getUsersToMoveAfter(Operation *op, GemmOp gemm) {
  Block *block = op->getBlock();
  llvm::SetVector<Operation *> before;
  for (Operation *user : op->getUsers()) {
    Operation *ancestor = block->findAncestorOpInBlock(*user);
    if (!ancestor)
      return std::nullopt;
    if (ancestor->isBeforeInBlock(gemm))
      before.insert(ancestor);
  }
  SmallVector<Operation *> users = before.takeVector();
  llvm::sort(users,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  for (Operation *user : users)
    for (Operation *reader : user->getUsers()) {
      Operation *ancestor = block->findAncestorOpInBlock(*reader);
      if (!ancestor || !gemm->isBeforeInBlock(ancestor))
        return std::nullopt;
    }
  return users;
}

/// The first GEMM after `op` in its block that can compute it, whose
/// epilogue has fewer than `maxEpilogueOps` ops, and that comes before every
/// user of its result or lets the users before it move after it (which
/// `usersToMove` returns); null when there is none.
static GemmOp findRecomputingGemm(Operation *op, unsigned maxEpilogueOps,
                                  SmallVector<Operation *> &usersToMove) {
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode()) {
    auto gemm = dyn_cast<GemmOp>(next);
    if (!gemm || !readsEveryTileOf(gemm, op) ||
        gemm.getBody().getOperations().size() > maxEpilogueOps)
      continue;
    std::optional<SmallVector<Operation *>> users =
        getUsersToMoveAfter(op, gemm);
    if (!users)
      continue;
    usersToMove = std::move(*users);
    return gemm;
  }
  return GemmOp();
}

namespace {
/// Moves a graph-level tile-local op whose tiles a later GEMM's epilogue
/// reads into that epilogue, as one more result of the GEMM.
struct RecomputeInEpilogue : public RewritePattern {
  RecomputeInEpilogue(MLIRContext *context, unsigned maxEpilogueOps)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context),
        maxEpilogueOps(maxEpilogueOps) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isRecomputable(op))
      return rewriter.notifyMatchFailure(
          op, "not a graph-level elementwise op on tiles and vectors");
    SmallVector<Operation *> usersToMove;
    GemmOp gemm = findRecomputingGemm(op, maxEpilogueOps, usersToMove);
    if (!gemm)
      return rewriter.notifyMatchFailure(
          op, "no later GEMM reads its tiles and can come before its users");

    // The users before the GEMM (a weight gradient the backward placed
    // first, say) follow it, in their order.
    Operation *last = gemm;
    for (Operation *user : usersToMove) {
      rewriter.moveOpAfter(user, last);
      last = user;
    }
    // Its tiles are inputs already; its per-row and per-column operands
    // become inputs.
    computeInEpilogue(rewriter, gemm, op);
    return success();
  }

  unsigned maxEpilogueOps;
};

struct CodaRecomputeInEpiloguesPass
    : public coda::impl::CodaRecomputeInEpiloguesPassBase<
          CodaRecomputeInEpiloguesPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateRecomputeInEpiloguesPatterns(patterns, maxEpilogueOps);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace

void mlir::coda::populateRecomputeInEpiloguesPatterns(
    RewritePatternSet &patterns, unsigned maxEpilogueOps) {
  patterns.add<RecomputeInEpilogue>(patterns.getContext(), maxEpilogueOps);
}
