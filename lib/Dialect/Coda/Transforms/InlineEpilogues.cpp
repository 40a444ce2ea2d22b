//===- InlineEpilogues.cpp - GEMM-epilogue programs as graph ops ----------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GemmUtils.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "coda/Dialect/Coda/Transforms/Passes.h"
#include "coda/Dialect/Coda/Transforms/Patterns.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#define DEBUG_TYPE "coda-inline-epilogues"

namespace mlir::coda {
#define GEN_PASS_DEF_CODAINLINEEPILOGUESPASS
#include "coda/Dialect/Coda/Transforms/Passes.h.inc"
} // namespace mlir::coda

using namespace mlir;
using namespace mlir::coda;

/// Returns `value` as `type`: widened or rounded when the element types
/// differ, cast when only static sizes differ.
static Value castTo(PatternRewriter &rewriter, Location loc, Value value,
                    Type type) {
  auto from = cast<RankedTensorType>(value.getType());
  auto to = cast<RankedTensorType>(type);
  Type fromElement = from.getElementType(), toElement = to.getElementType();
  if (fromElement != toElement) {
    auto converted = from.clone(toElement);
    unsigned fromWidth = fromElement.getIntOrFloatBitWidth();
    unsigned toWidth = toElement.getIntOrFloatBitWidth();
    if (toWidth > fromWidth ||
        (toWidth == fromWidth && !isa<BFloat16Type>(toElement)))
      value = arith::ExtFOp::create(rewriter, loc, converted, value);
    else
      value = arith::TruncFOp::create(rewriter, loc, converted, value);
  }
  if (value.getType() != type)
    value = tensor::CastOp::create(rewriter, loc, type, value);
  return value;
}

namespace {
struct InlineEpilogue : public OpRewritePattern<GemmOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(GemmOp gemm,
                                PatternRewriter &rewriter) const override {
    bool reducesRows = gemm.getALayout() == "km";
    bool transposed = gemm.getBLayout() == "nk";
    if (reducesRows && transposed)
      return rewriter.notifyMatchFailure(gemm, "a is km and b is nk");
    Location loc = gemm.getLoc();
    int64_t m = gemm.getM();

    // Each product's weights side by side, the products summed.
    Value acc;
    for (unsigned product = 0; product < gemm.getNumProducts(); ++product) {
      Value a = gemm.getA()[product];
      SmallVector<Value> columns;
      for (Value weight : gemm.getProductWeights(product)) {
        auto type = RankedTensorType::get({m, gemm.getWeightColumns(weight)},
                                          rewriter.getF32Type());
        if (reducesRows)
          columns.push_back(
              TransposedMatmulOp::create(rewriter, loc, type, a, weight));
        else if (transposed)
          columns.push_back(
              LinearOp::create(rewriter, loc, type, a, weight, Value()));
        else
          columns.push_back(MatmulOp::create(rewriter, loc, type, a, weight));
      }
      Value term = columns.size() == 1
                       ? columns.front()
                       : ConcatOp::create(rewriter, loc,
                                          gemm.getAccumulatorType(), columns)
                             .getResult();
      acc = acc ? AddOp::create(rewriter, loc, gemm.getAccumulatorType(), acc,
                                term)
                      .getResult()
                : term;
    }

    SmallVector<Value> arguments = {acc};
    for (Value input : gemm.getInputs())
      arguments.push_back(
          castTo(rewriter, loc, input, getEpilogueType(input.getType())));

    Block &body = gemm.getBody();
    auto yield = cast<YieldOp>(body.getTerminator());
    rewriter.inlineBlockBefore(&body, gemm, arguments);

    SmallVector<Value> results;
    rewriter.setInsertionPoint(gemm);
    std::optional<ArrayRef<int64_t>> accumulate = gemm.getAccumulate();
    for (auto [index, value, result] :
         llvm::enumerate(yield.getValues(), gemm.getResults())) {
      // A result accumulated into an input is their sum, rounded once.
      if (accumulate && (*accumulate)[index] >= 0)
        value = AddOp::create(rewriter, loc, value.getType(), value,
                              arguments[1 + (*accumulate)[index]]);
      results.push_back(castTo(rewriter, loc, value, result.getType()));
    }
    rewriter.eraseOp(yield);
    rewriter.replaceOp(gemm, results);
    return success();
  }
};

/// A map computes its region on its inputs in f32 and rounds the yielded
/// value once: the region's ops on the widened inputs, then the result; a
/// row-sum map's result is the sum of each row of the yielded value.
struct InlineMap : public OpRewritePattern<MapOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MapOp map,
                                PatternRewriter &rewriter) const override {
    Location loc = map.getLoc();
    SmallVector<Value> arguments;
    for (Value input : map.getInputs())
      arguments.push_back(
          castTo(rewriter, loc, input, getEpilogueType(input.getType())));
    Block &body = map.getBlock();
    auto yield = cast<YieldOp>(body.getTerminator());
    rewriter.inlineBlockBefore(&body, map, arguments);
    rewriter.setInsertionPoint(map);
    Value yielded = yield.getValues().front();
    if (map.getRowSum())
      yielded = finishRowPartials(
          rewriter, loc,
          PartialReduceOp::create(rewriter, loc, getPartialsType(yielded),
                                  yielded, "sum", /*tile_n=*/IntegerAttr()),
          "sum", map.getResult().getType());
    Value result = castTo(rewriter, loc, yielded, map.getResult().getType());
    rewriter.eraseOp(yield);
    rewriter.replaceOp(map, result);
    return success();
  }
};

struct CodaInlineEpiloguesPass
    : public coda::impl::CodaInlineEpiloguesPassBase<CodaInlineEpiloguesPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateInlineEpiloguesPatterns(patterns);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
    WalkResult left = getOperation().walk([](GemmOp gemm) {
      gemm.emitError("cannot inline this GEMM: a_layout = \"km\" with "
                     "b_layout = \"nk\" is not supported by the CPU "
                     "reference path yet");
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

void mlir::coda::populateInlineEpiloguesPatterns(RewritePatternSet &patterns) {
  patterns.add<InlineEpilogue, InlineMap>(patterns.getContext());
}
