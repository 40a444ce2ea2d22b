//===- CodaEpilogueOps.cpp - coda epilogue-program ops --------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda/Dialect/Coda/IR/CodaOps.h"

#include "VerifierUtils.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::coda;
using namespace mlir::coda::detail;

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

/// Returns the contraction size of weight `b` in `layout`.
static int64_t weightK(Value b, StringRef layout) {
  return tensorType(b).getDimSize(layout == "nk" ? 1 : 0);
}

/// Returns the output columns of weight `b` in `layout`.
static int64_t weightN(Value b, StringRef layout) {
  return tensorType(b).getDimSize(layout == "nk" ? 0 : 1);
}

/// Returns the rows of `a` in `layout`.
static int64_t productM(Value a, StringRef layout) {
  return tensorType(a).getDimSize(layout == "mk" ? 0 : 1);
}

/// Returns the contraction size of `a` in `layout`.
static int64_t productK(Value a, StringRef layout) {
  return tensorType(a).getDimSize(layout == "mk" ? 1 : 0);
}

int64_t GemmOp::getM() { return productM(getFirstA(), getALayout()); }

int64_t GemmOp::getK() { return productK(getFirstA(), getALayout()); }

int64_t GemmOp::getWeightColumns(Value weight) {
  return weightN(weight, getBLayout());
}

int64_t GemmOp::getN() {
  int64_t n = 0;
  for (Value b : getProductWeights(0)) {
    int64_t size = weightN(b, getBLayout());
    if (ShapedType::isDynamic(size))
      return ShapedType::kDynamic;
    n += size;
  }
  return n;
}

RankedTensorType GemmOp::getAccumulatorType() {
  return RankedTensorType::get({getM(), getN()},
                               Float32Type::get(getContext()));
}

Type GemmOp::getRegionType(Type inputType) {
  auto tensor = dyn_cast<RankedTensorType>(inputType);
  if (!tensor || !isa<FloatType>(tensor.getElementType()))
    return inputType;
  return tensor.clone(Float32Type::get(inputType.getContext()));
}

void GemmOp::build(OpBuilder &builder, OperationState &state,
                   TypeRange resultTypes, ValueRange a, ValueRange b,
                   ValueRange inputs, StringRef aLayout, StringRef bLayout) {
  state.addOperands(a);
  state.addOperands(b);
  state.addOperands(inputs);
  Properties &properties = state.getOrAddProperties<Properties>();
  properties.operandSegmentSizes = {static_cast<int32_t>(a.size()),
                                    static_cast<int32_t>(b.size()),
                                    static_cast<int32_t>(inputs.size())};
  if (aLayout != "mk")
    properties.a_layout = builder.getStringAttr(aLayout);
  if (bLayout != "nk")
    properties.b_layout = builder.getStringAttr(bLayout);
  state.addTypes(resultTypes);

  assert(!a.empty() && "a GEMM has at least one product");
  int64_t m = productM(a.front(), aLayout);
  int64_t n = 0;
  for (Value weight : b.take_front(b.size() / a.size()))
    n += weightN(weight, bLayout);
  auto accType = RankedTensorType::get({m, n}, builder.getF32Type());
  Region *region = state.addRegion();
  Block *block = new Block();
  region->push_back(block);
  block->addArgument(accType, state.location);
  for (Value input : inputs)
    block->addArgument(getRegionType(input.getType()), state.location);
}

/// Checks the TMA rule on the contiguous dimension of a GEMM operand.
static LogicalResult verifyContiguousRow(Operation *op, StringRef name,
                                         int64_t size, Type type) {
  if (ShapedType::isDynamic(size))
    return op->emitOpError() << name
                             << " has a dynamic contiguous dimension; TMA "
                                "needs a static row stride";
  return verifyTmaRowStride(op, (name + " contiguous size").str(), size, type);
}

LogicalResult GemmOp::verify() {
  StringRef aLayout = getALayout(), bLayout = getBLayout();
  if (getA().empty())
    return emitOpError("needs at least one product");
  if (getB().empty())
    return emitOpError("needs at least one weight");
  // gemm_c7: the products' shapes agree.
  unsigned products = getNumProducts();
  if (getB().size() % products != 0)
    return emitOpError("has ")
           << getB().size() << " weights for " << products
           << " products; every product needs as many weights as the first";
  ValueRange firstWeights = getProductWeights(0);
  for (unsigned product = 0; product < products; ++product) {
    Value a = getA()[product];
    std::string aName =
        products == 1 ? "a" : "product #" + std::to_string(product) + "'s a";
    if (product > 0) {
      if (isStaticMismatch(productM(a, aLayout), getM()))
        return emitOpError()
               << aName << " has M = " << dimString(productM(a, aLayout))
               << " but the first product has M = " << dimString(getM());
      if (failed(verifySameElementType(*this, a, aName, getFirstA(),
                                       "the first product's a")))
        return failure();
    }
    // gemm_c1: the weights agree with their product's a.
    int64_t k = productK(a, aLayout);
    for (auto [index, b] : llvm::enumerate(getProductWeights(product))) {
      unsigned position = product * firstWeights.size() + index;
      std::string name = "weight #" + std::to_string(position);
      int64_t bk = weightK(b, bLayout);
      if (isStaticMismatch(bk, k))
        return emitOpError("contraction size mismatch: ")
               << aName << " has K = " << dimString(k) << " but " << name
               << " has K = " << dimString(bk);
      if (failed(verifySameElementType(*this, b, name, a, aName)))
        return failure();
      if (ShapedType::isDynamic(weightN(b, bLayout)))
        return emitOpError() << name << " has a dynamic number of columns";
      if (product > 0 &&
          weightN(b, bLayout) != weightN(firstWeights[index], bLayout))
        return emitOpError() << name << " has " << weightN(b, bLayout)
                             << " columns but weight #" << index
                             << " of the first product has "
                             << weightN(firstWeights[index], bLayout);
      // gemm_c5: the contiguous dimension of every weight.
      int64_t contiguous = tensorType(b).getDimSize(1);
      if (failed(verifyContiguousRow(*this, name, contiguous, b.getType())))
        return failure();
    }
    // gemm_c5: the contiguous dimension of a.
    if (failed(verifyContiguousRow(*this, aName, tensorType(a).getDimSize(1),
                                   a.getType())))
      return failure();
  }

  // gemm_c6: results accumulated into inputs of their own type.
  if (std::optional<ArrayRef<int64_t>> accumulate = getAccumulate()) {
    if (accumulate->size() != getNumResults())
      return emitOpError("accumulate has ")
             << accumulate->size() << " entries but the GEMM has "
             << getNumResults() << " results";
    llvm::SmallDenseSet<int64_t> taken;
    for (auto [index, input] : llvm::enumerate(*accumulate)) {
      if (input == -1)
        continue;
      if (input < 0 || input >= static_cast<int64_t>(getInputs().size()))
        return emitOpError("accumulate entry #")
               << index << " is " << input << ", not -1 or one of the "
               << getInputs().size() << " inputs";
      if (getInputs()[input].getType() != getResult(index).getType())
        return emitOpError("result #")
               << index << " of type " << getResult(index).getType()
               << " cannot accumulate into input #" << input << " of type "
               << getInputs()[input].getType();
      if (!taken.insert(input).second)
        return emitOpError("input #") << input << " takes two results";
    }
  }

  // gemm_c5: the contiguous dimension of every result the kernel stores by
  // TMA; a symbolic number of partials is laid out by the planner.
  for (auto [index, result] : llvm::enumerate(getResults())) {
    auto type = cast<RankedTensorType>(result.getType());
    if (type.getRank() != 2 || type.isDynamicDim(1))
      continue;
    std::string name = "result #" + std::to_string(index);
    if (failed(verifyContiguousRow(*this, name, type.getDimSize(1), type)))
      return failure();
  }
  return success();
}

bool mlir::coda::isTileLocalOp(Operation *op) {
  return isa<AddOp, AddOuterOp, MulOp, MulOuterOp, ScaleOp, SiLUOp, ReLUOp,
             SigmoidOp, TanhOp, GELUOp, SwiGLUOp, ActivationGradOp, RoPEOp,
             SliceOp, ConcatOp, SoftmaxTargetGradOp, PartialReduceOp,
             PartialSumRowsOp, PartialGatherOp>(op);
}

Value mlir::coda::getPartialsSource(Value value) {
  if (auto partial = value.getDefiningOp<PartialReduceOp>())
    return partial.getX();
  if (auto gather = value.getDefiningOp<PartialGatherOp>())
    return gather.getX();
  if (auto sums = value.getDefiningOp<PartialSumRowsOp>())
    return sums.getX();
  return Value();
}

PartialSumRowsOp mlir::coda::getPartialSumRowsOf(Value value) {
  auto result = dyn_cast<OpResult>(value);
  auto gemm = result ? dyn_cast<GemmOp>(result.getOwner()) : GemmOp();
  if (!gemm)
    return PartialSumRowsOp();
  auto yield = cast<YieldOp>(gemm.getBody().getTerminator());
  return yield.getValues()[result.getResultNumber()]
      .getDefiningOp<PartialSumRowsOp>();
}

LogicalResult MapOp::verifyRegions() {
  Block &body = getBlock();
  // map_c1: the block arguments.
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("region has ")
           << body.getNumArguments() << " arguments but expected "
           << getInputs().size() << " (one per input)";
  for (auto [index, input, arg] :
       llvm::enumerate(getInputs(), body.getArguments())) {
    Type expected = GemmOp::getRegionType(input.getType());
    if (arg.getType() != expected)
      return emitOpError("region argument for input #")
             << index << " has type " << arg.getType() << " but expected "
             << expected;
  }
  // map_c3: only tile-local ops.
  for (Operation &op : body.without_terminator())
    if (!isTileLocalOp(&op))
      return op.emitOpError("is not tile-local and cannot run in a map");
  // map_c2: the yield matches the result.
  auto yield = dyn_cast<YieldOp>(body.back());
  if (!yield)
    return emitOpError("region must end in coda.yield");
  auto resultType = cast<RankedTensorType>(getResult().getType());
  if (getRowSum()) {
    auto yielded =
        yield.getValues().size() == 1
            ? dyn_cast<RankedTensorType>(yield.getValues().front().getType())
            : RankedTensorType();
    if (resultType.getDimSize(1) != 1 || !resultType.getElementType().isF32())
      return emitOpError("with row_sum gives one f32 value per row, "
                         "tensor<Mx1xf32>, not ")
             << resultType;
    if (!yielded || !yielded.getElementType().isF32() ||
        yielded.getShape()[0] != resultType.getShape()[0])
      return yield.emitOpError("a map with row_sum yields one f32 matrix of "
                               "the result's rows, got ")
             << yield.getValues().getTypes();
    return success();
  }
  Type expected = GemmOp::getRegionType(resultType);
  if (yield.getValues().size() != 1 ||
      yield.getValues().front().getType() != expected)
    return yield.emitOpError("a map yields one value of type ")
           << expected << ", got " << yield.getValues().getTypes();
  return success();
}

LogicalResult GemmOp::verifyRegions() {
  Block &body = getBody();

  // gemm_c2: the block arguments.
  if (body.getNumArguments() != 1 + getInputs().size())
    return emitOpError("epilogue has ")
           << body.getNumArguments() << " arguments but expected "
           << 1 + getInputs().size() << " (the accumulator and one per input)";
  if (getAccumulator().getType() != getAccumulatorType())
    return emitOpError("epilogue accumulator has type ")
           << getAccumulator().getType() << " but expected "
           << getAccumulatorType();
  for (auto [index, input] : llvm::enumerate(getInputs())) {
    Type expected = getRegionType(input.getType());
    if (getInputArgument(index).getType() != expected)
      return emitOpError("epilogue argument for input #")
             << index << " has type " << getInputArgument(index).getType()
             << " but expected " << expected;
  }

  // gemm_c4: only tile-local ops.
  for (Operation &op : body.without_terminator())
    if (!isTileLocalOp(&op))
      return op.emitOpError("is not tile-local and cannot run in a GEMM "
                            "epilogue");

  // gemm_c3: the yield matches the results.
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return emitOpError("epilogue must end in coda.yield");
  if (yield.getValues().size() != getNumResults())
    return yield.emitOpError("yields ")
           << yield.getValues().size() << " values but the GEMM has "
           << getNumResults() << " results";
  for (auto [index, value, result] :
       llvm::enumerate(yield.getValues(), getResults())) {
    auto valueType = tensorType(value);
    auto resultType = cast<RankedTensorType>(result.getType());
    bool sameShape =
        valueType.getRank() == resultType.getRank() &&
        llvm::all_of(llvm::seq<int64_t>(0, valueType.getRank()),
                     [&](int64_t d) {
                       return !isStaticMismatch(valueType.getDimSize(d),
                                                resultType.getDimSize(d)) &&
                              (d == 0 || valueType.getDimSize(d) ==
                                             resultType.getDimSize(d));
                     });
    if (!sameShape || !valueType.getElementType().isF32())
      return yield.emitOpError("value #")
             << index << " has type " << valueType << " but result #" << index
             << " of type " << resultType
             << " needs a value of its shape with f32 elements";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// PartialReduceOp
//===----------------------------------------------------------------------===//

/// Checks the `[M, T]` partials of blocks of `tile_n` columns of `x`
/// (partial_reduce_c1/c2, partial_gather_c2).
static LogicalResult verifyPartials(Operation *op, Value x, Value result,
                                    std::optional<uint64_t> tileNAttr) {
  auto xType = tensorType(x);
  auto resultType = tensorType(result);
  std::optional<int64_t> tileN;
  if (tileNAttr)
    tileN = static_cast<int64_t>(*tileNAttr);
  if (tileN && *tileN <= 0)
    return op->emitOpError("tile_n must be positive, got ") << *tileN;
  if (xType.isDynamicDim(1))
    return op->emitOpError("x must have a static number of columns, got ")
           << xType;
  if (failed(verifyRows(op, result, "result", xType.getDimSize(0), "x")))
    return failure();
  int64_t blocks = resultType.getDimSize(1);
  if (ShapedType::isDynamic(blocks))
    return success();
  if (!tileN)
    return op->emitOpError("a static number of partials (")
           << blocks << ") needs a tile_n";
  int64_t expected = llvm::divideCeil(xType.getDimSize(1), *tileN);
  if (blocks != expected)
    return op->emitOpError("expected ")
           << expected << " partials per row for " << xType.getDimSize(1)
           << " columns in blocks of " << *tileN << ", got " << blocks;
  return success();
}

LogicalResult PartialReduceOp::verify() {
  return verifyPartials(*this, getX(), getResult(), getTileN());
}

//===----------------------------------------------------------------------===//
// PartialSumRowsOp
//===----------------------------------------------------------------------===//

LogicalResult PartialSumRowsOp::verify() {
  // partial_sum_rows_c1.
  int64_t blockRows = static_cast<int64_t>(getBlockRows());
  if (blockRows <= 0)
    return emitOpError("block_rows must be positive, got ") << blockRows;
  // partial_sum_rows_c2.
  auto xType = tensorType(getX());
  auto resultType = tensorType(getResult());
  if (resultType.getDimSize(1) != xType.getDimSize(1))
    return emitOpError("expected partials of ")
           << xType.getDimSize(1) << " columns, the columns of x, got "
           << resultType;
  int64_t rows = xType.getDimSize(0), blocks = resultType.getDimSize(0);
  int64_t expected = (rows + blockRows - 1) / blockRows;
  if (!ShapedType::isDynamic(rows) && !ShapedType::isDynamic(blocks) &&
      blocks != expected)
    return emitOpError("expected ")
           << expected << " partial rows for " << rows << " rows in blocks of "
           << blockRows << ", got " << blocks;
  if (ShapedType::isDynamic(rows) != ShapedType::isDynamic(blocks))
    return emitOpError("expected partial rows that are dynamic exactly when "
                       "the rows of x are, got ")
           << resultType << " for x of type " << xType;
  return success();
}

//===----------------------------------------------------------------------===//
// PartialGatherOp
//===----------------------------------------------------------------------===//

LogicalResult PartialGatherOp::verify() {
  // partial_gather_c1: one target per row.
  if (failed(verifyCommonRows(*this, {{getX(), "x"},
                                      {getTargets(), "targets"},
                                      {getResult(), "the result"}})))
    return failure();
  // partial_gather_c2.
  return verifyPartials(*this, getX(), getResult(), getTileN());
}

//===----------------------------------------------------------------------===//
// CrossEntropyFromPartialsOp
//===----------------------------------------------------------------------===//

LogicalResult CrossEntropyFromPartialsOp::verify() {
  // cross_entropy_from_partials_c1: one row each.
  SmallVector<RowOperand> rows = {{getLse(), "lse"},
                                  {getTargetLogits(), "target_logits"},
                                  {getTargets(), "targets"}};
  auto resultType = tensorType(getResult());
  // cross_entropy_from_partials_c2: a scalar, or one loss per row.
  if (getReduction() == "none") {
    if (resultType.getRank() != 1)
      return emitOpError("reduction \"none\" expects a result of type "
                         "tensor<Mxf32>, got ")
             << resultType;
    rows.push_back({getResult(), "the result"});
  } else if (resultType.getRank() != 0) {
    return emitOpError("reduction \"")
           << getReduction() << "\" expects a result of type tensor<f32>, got "
           << resultType;
  }
  return verifyCommonRows(*this, rows);
}

//===----------------------------------------------------------------------===//
// NormStatisticsOp
//===----------------------------------------------------------------------===//

LogicalResult NormStatisticsOp::verify() {
  auto xType = tensorType(getX());
  bool scaled = static_cast<bool>(getGamma());
  bool layer = getKind() == "layer_norm";
  // norm_statistics_c1: the results.
  size_t expected = (scaled ? 1 : 0) + (layer ? 2 : 1);
  if (getResults().size() != expected)
    return emitOpError("expected ")
           << expected << " results (" << (scaled ? "h, " : "") << "rstd"
           << (layer ? ", mean" : "") << "), got " << getResults().size();

  // norm_statistics_c2: their types.
  SmallVector<RowOperand> rows = {{getX(), "x"}};
  for (auto [index, result] : llvm::enumerate(getResults())) {
    auto type = tensorType(result);
    std::string name = "result #" + std::to_string(index);
    rows.push_back({result, name});
    if (scaled && index == 0) {
      if (type.getDimSize(1) != xType.getDimSize(1) ||
          type.getElementType() != xType.getElementType())
        return emitOpError("h must have the columns and element type of x, "
                           "got ")
               << type;
      continue;
    }
    if (type.getDimSize(1) != 1 || !type.getElementType().isF32())
      return emitOpError(name) << " is a per-row statistic and must be [M, 1] "
                                  "f32, got "
                               << type;
  }
  if (scaled &&
      (failed(
           verifyVectorSize(*this, getGamma(), "gamma", xType.getDimSize(1))) ||
       failed(verifySameElementType(*this, getGamma(), "gamma", getX(), "x"))))
    return failure();
  if (failed(verifyCommonRows(*this, rows)))
    return failure();
  // norm_statistics_c3.
  return verifyEpsilon(*this, getEpsilon());
}

//===----------------------------------------------------------------------===//
// ReducePartialsOp
//===----------------------------------------------------------------------===//

LogicalResult ReducePartialsOp::verify() {
  StringRef kind = getKind();
  // reduce_partials_c1: operand and result counts.
  size_t arity = kind == "mean_rstd" ? 2 : 1;
  if (getPartials().size() != arity || getResults().size() != arity)
    return emitOpError("kind \"")
           << kind << "\" takes " << arity << " partials and gives " << arity
           << " results, got " << getPartials().size() << " and "
           << getResults().size();

  // reduce_partials_c2: rows agree; results are [M, 1].
  SmallVector<RowOperand> rows;
  for (auto [index, partial] : llvm::enumerate(getPartials()))
    rows.push_back({partial, "partials #" + std::to_string(index)});
  for (auto [index, result] : llvm::enumerate(getResults())) {
    auto type = tensorType(result);
    if (type.getDimSize(1) != 1)
      return emitOpError("result #")
             << index << " must be [M, 1], got " << type;
    rows.push_back({result, "result #" + std::to_string(index)});
  }
  if (failed(verifyCommonRows(*this, rows)))
    return failure();

  // reduce_partials_c3: normalization parameters.
  if (kind == "rstd" || kind == "mean_rstd") {
    if (!getCount() || static_cast<int64_t>(*getCount()) <= 0)
      return emitOpError("kind \"") << kind << "\" needs a positive count";
    if (!getEpsilon())
      return emitOpError("kind \"") << kind << "\" needs an epsilon";
    if (failed(verifyEpsilon(*this, *getEpsilon())))
      return failure();
  }
  if (getTileN() && static_cast<int64_t>(*getTileN()) <= 0)
    return emitOpError("tile_n must be positive, got ")
           << static_cast<int64_t>(*getTileN());
  return success();
}
