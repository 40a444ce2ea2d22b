//===- GemmUtils.cpp - building and growing coda.gemm ops -----------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GemmUtils.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::coda;

Type mlir::coda::getEpilogueType(Type type) {
  return GemmOp::getRegionType(type);
}

GemmOp mlir::coda::createGemm(OpBuilder &builder, Location loc,
                              TypeRange resultTypes, Value a,
                              ValueRange weights, ValueRange inputs,
                              EpilogueBodyBuilder body, StringRef bLayout,
                              StringRef aLayout) {
  auto gemm = GemmOp::create(builder, loc, resultTypes, a, weights, inputs,
                             aLayout, bLayout);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(&gemm.getBody());
  SmallVector<Value> yielded = body(builder, loc, gemm.getAccumulator(),
                                    gemm.getBody().getArguments().drop_front());
  YieldOp::create(builder, loc, yielded);
  return gemm;
}

/// Creates, before `gemm`, a GEMM on `a` and `weights` whose inputs are those
/// of `gemm` followed by the new ones in `extraInputs`, and whose results are
/// those of `gemm` followed by `extraResultTypes`, and moves the epilogue of
/// `gemm` into it. `gemm` is left without a body, to be replaced.
static GemmOp createWithMovedBody(RewriterBase &rewriter, GemmOp gemm,
                                  ValueRange a, ValueRange weights,
                                  ValueRange extraInputs,
                                  TypeRange extraResultTypes) {
  SmallVector<Value> inputs(gemm.getInputs());
  for (Value input : extraInputs)
    if (!llvm::is_contained(inputs, input))
      inputs.push_back(input);
  SmallVector<Type> resultTypes(gemm.getResultTypes());
  llvm::append_range(resultTypes, extraResultTypes);

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(gemm);
  auto created =
      GemmOp::create(rewriter, gemm.getLoc(), resultTypes, a, weights, inputs,
                     gemm.getALayout(), gemm.getBLayout());
  created->setDiscardableAttrs(gemm->getDiscardableAttrDictionary());
  // Accumulation targets inputs by index; the moved inputs keep theirs and
  // new results accumulate nothing.
  if (std::optional<ArrayRef<int64_t>> accumulate = gemm.getAccumulate()) {
    SmallVector<int64_t> extended(*accumulate);
    extended.append(extraResultTypes.size(), -1);
    created.setAccumulate(extended);
  }

  // The old arguments map onto the leading arguments of the new block, which
  // already has one per input.
  Block &newBody = created.getBody();
  Block &oldBody = gemm.getBody();
  rewriter.mergeBlocks(
      &oldBody, &newBody,
      newBody.getArguments().take_front(oldBody.getNumArguments()));
  return created;
}

GemmOp mlir::coda::convertLinearToGemm(RewriterBase &rewriter,
                                       LinearOp linear) {
  SmallVector<Value> inputs;
  if (linear.getBias())
    inputs.push_back(linear.getBias());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(linear);
  GemmOp gemm = createGemm(
      rewriter, linear.getLoc(), linear.getType(), linear.getX(), linear.getW(),
      inputs,
      [&](OpBuilder &builder, Location loc, Value acc,
          ValueRange args) -> SmallVector<Value> {
        if (args.empty())
          return {acc};
        return {AddOp::create(builder, loc, acc.getType(), acc, args[0])};
      });
  rewriter.replaceOp(linear, gemm.getResults());
  return gemm;
}

/// Replaces `product`, of operands `a` and `b`, by a GEMM over them whose
/// epilogue is the product itself.
static GemmOp replaceByProductGemm(RewriterBase &rewriter, Operation *product,
                                   Value a, Value b, StringRef aLayout,
                                   StringRef bLayout) {
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(product);
  GemmOp gemm = createGemm(
      rewriter, product->getLoc(), product->getResultTypes(), a, b,
      ValueRange(),
      [](OpBuilder &, Location, Value acc, ValueRange) -> SmallVector<Value> {
        return {acc};
      },
      bLayout, aLayout);
  rewriter.replaceOp(product, gemm.getResults());
  return gemm;
}

GemmOp mlir::coda::convertMatmulToGemm(RewriterBase &rewriter,
                                       MatmulOp matmul) {
  return replaceByProductGemm(rewriter, matmul, matmul.getA(), matmul.getB(),
                              "mk", "kn");
}

GemmOp mlir::coda::convertTransposedMatmulToGemm(RewriterBase &rewriter,
                                                 TransposedMatmulOp product) {
  return replaceByProductGemm(rewriter, product, product.getA(), product.getB(),
                              "km", "kn");
}

BlockArgument mlir::coda::getInputArgument(GemmOp gemm, Value input) {
  auto it = llvm::find(gemm.getInputs(), input);
  assert(it != gemm.getInputs().end() && "not an input of the GEMM");
  return gemm.getInputArgument(it - gemm.getInputs().begin());
}

GemmOp mlir::coda::rebuildGemm(RewriterBase &rewriter, GemmOp gemm,
                               ValueRange a, ValueRange weights,
                               ValueRange extraInputs) {
  GemmOp rebuilt =
      createWithMovedBody(rewriter, gemm, a, weights, extraInputs, {});
  rewriter.replaceOp(gemm, rebuilt.getResults());
  return rebuilt;
}

GemmOp mlir::coda::extendGemm(RewriterBase &rewriter, GemmOp gemm,
                              ValueRange newInputs, TypeRange newResultTypes,
                              EpilogueExtensionBuilder extend) {
  GemmOp extended = createWithMovedBody(rewriter, gemm, gemm.getA(),
                                        gemm.getB(), newInputs, newResultTypes);
  auto yield = cast<YieldOp>(extended.getBody().getTerminator());
  SmallVector<Value> newInputArgs;
  for (Value input : newInputs)
    newInputArgs.push_back(getInputArgument(extended, input));

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(yield);
  SmallVector<Value> yielded(yield.getValues());
  SmallVector<Value> extra =
      extend(rewriter, gemm.getLoc(), yielded, newInputArgs);
  llvm::append_range(yielded, extra);
  rewriter.modifyOpInPlace(yield,
                           [&] { yield.getValuesMutable().assign(yielded); });

  rewriter.replaceOp(gemm,
                     extended.getResults().take_front(gemm.getNumResults()));
  return extended;
}

GemmOp mlir::coda::computeInEpilogue(RewriterBase &rewriter, GemmOp gemm,
                                     Operation *op) {
  SmallVector<Value> external;
  for (Value operand : op->getOperands())
    if (operand.getDefiningOp<GemmOp>() != gemm &&
        !llvm::is_contained(external, operand))
      external.push_back(operand);

  Type resultType = op->getResult(0).getType();
  GemmOp extended =
      extendGemm(rewriter, gemm, external, resultType,
                 [&](OpBuilder &builder, Location, ValueRange yielded,
                     ValueRange externalArgs) -> SmallVector<Value> {
                   IRMapping mapping;
                   mapping.map(gemm.getResults(), yielded);
                   mapping.map(external, externalArgs);
                   Operation *clone = builder.clone(*op, mapping);
                   clone->getResult(0).setType(getEpilogueType(resultType));
                   return {clone->getResult(0)};
                 });
  rewriter.replaceOp(op, extended.getResults().back());
  return extended;
}

bool mlir::coda::isDefinedBefore(Value value, Operation *point) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return arg.getOwner()->findAncestorOpInBlock(*point) != nullptr;
  Operation *def = value.getDefiningOp();
  Operation *ancestor = def->getBlock()->findAncestorOpInBlock(*point);
  return ancestor && ancestor != def && def->isBeforeInBlock(ancestor);
}

RankedTensorType mlir::coda::getPartialsType(Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  return RankedTensorType::get({type.getDimSize(0), ShapedType::kDynamic},
                               Float32Type::get(x.getContext()));
}

RankedTensorType mlir::coda::getStatisticType(Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  return RankedTensorType::get({type.getDimSize(0), 1},
                               Float32Type::get(x.getContext()));
}

Value mlir::coda::buildRMSNormRstd(OpBuilder &builder, Location loc, Value x,
                                   FloatAttr epsilon) {
  Value sumSquares = PartialReduceOp::create(builder, loc, getPartialsType(x),
                                             x, "sum_squares", IntegerAttr());
  return ReducePartialsOp::create(
             builder, loc, getStatisticType(x), sumSquares, "rstd",
             builder.getI64IntegerAttr(
                 cast<RankedTensorType>(x.getType()).getDimSize(1)),
             epsilon, /*tile_n=*/IntegerAttr())
      .getResult(0);
}

Value mlir::coda::finishRowPartials(OpBuilder &builder, Location loc,
                                    Value partials, StringRef kind, Type type) {
  return ReducePartialsOp::create(builder, loc, TypeRange{type},
                                  ValueRange{partials}, kind,
                                  /*count=*/IntegerAttr(),
                                  /*epsilon=*/FloatAttr(),
                                  /*tile_n=*/IntegerAttr())
      .getResult(0);
}

bool mlir::coda::hasProducingGemm(Value x) {
  Operation *producer = x.getDefiningOp();
  if (!producer)
    return false;
  if (isa<LinearOp, GemmOp>(producer))
    return true;
  return isTileLocalOp(producer) &&
         llvm::any_of(producer->getOperands(), hasProducingGemm);
}

bool mlir::coda::isSixteenBitFirstLayerRMSNorm(Operation *norm) {
  auto rms = dyn_cast<RMSNormOp>(norm);
  return rms && rms.getType().getElementTypeBitWidth() == 16 &&
         !hasProducingGemm(rms.getX());
}
