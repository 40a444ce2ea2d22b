//===- CodaOps.cpp - coda operation verifiers -----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every check carries the label of the constraint it enforces, as listed in
// the op's description in CodaOps.td and exercised in test/Dialect/Coda.
//
//===----------------------------------------------------------------------===//

#include "coda/Dialect/Coda/IR/CodaOps.h"

#include "VerifierUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::coda;
using namespace mlir::coda::detail;

/// The largest feature size: TMA boxes and strides are 32-bit, and bounding
/// sizes keeps every product the verifiers form far from overflow.
static constexpr int64_t kMaxFeatureSize = int64_t(1) << 31;

LogicalResult mlir::coda::detail::verifyStaticFeatureSizes(Operation *op) {
  auto check = [&](Value value, StringRef kind,
                   unsigned index) -> LogicalResult {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type)
      return success();
    for (int64_t dim = 1; dim < type.getRank(); ++dim) {
      if (type.isDynamicDim(dim))
        return op->emitOpError()
               << kind << " #" << index << " has type " << type
               << " with a dynamic size in dimension " << dim
               << "; only the row count may be dynamic";
      int64_t size = type.getDimSize(dim);
      if (size <= 0 || size > kMaxFeatureSize)
        return op->emitOpError()
               << kind << " #" << index << " has type " << type << " with size "
               << size << " in dimension " << dim
               << "; feature sizes must be in [1, " << kMaxFeatureSize << "]";
    }
    // A weight's or vector's first dimension is a feature size too.
    if (type.getRank() >= 1 && !type.isDynamicDim(0) &&
        type.getDimSize(0) > kMaxFeatureSize)
      return op->emitOpError()
             << kind << " #" << index << " has type " << type << " with size "
             << type.getDimSize(0) << " in dimension 0; sizes must be at most "
             << kMaxFeatureSize;
    return success();
  };
  for (auto [index, value] : llvm::enumerate(op->getOperands()))
    if (failed(check(value, "operand", index)))
      return failure();
  for (auto [index, value] : llvm::enumerate(op->getResults()))
    if (failed(check(value, "result", index)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// LinearOp
//===----------------------------------------------------------------------===//

LogicalResult LinearOp::verify() {
  auto xType = tensorType(getX());
  auto wType = tensorType(getW());
  auto resultType = tensorType(getResult());
  int64_t k = xType.getDimSize(1);

  // linear_c6: the weight is fully static.
  if (wType.isDynamicDim(0))
    return emitOpError("weight w must have a static shape, got ") << wType;
  int64_t n = wType.getDimSize(0);

  // linear_c1: x and w agree on the contraction size.
  if (wType.getDimSize(1) != k)
    return emitOpError("contraction size mismatch: x has K = ")
           << k << " but w has K = " << wType.getDimSize(1);

  // linear_c2: the result is [M, N].
  if (resultType.getDimSize(1) != n ||
      isStaticMismatch(resultType.getDimSize(0), xType.getDimSize(0)))
    return emitOpError("expected result shape ")
           << dimString(xType.getDimSize(0)) << "x" << n << ", got "
           << resultType;

  // linear_c3: one bias element per output column.
  if (Value bias = getBias()) {
    int64_t biasSize = tensorType(bias).getDimSize(0);
    if (biasSize != n)
      return emitOpError("bias has ")
             << dimString(biasSize) << " elements but the result has " << n
             << " columns";
  }

  // linear_c4: one element type for the operands.
  if (failed(verifySameElementType(*this, getW(), "w", getX(), "x")))
    return failure();
  if (getBias() &&
      failed(verifySameElementType(*this, getBias(), "bias", getX(), "x")))
    return failure();

  // linear_c5: TMA strides of x, w (K) and the result (N).
  if (failed(verifyTmaRowStride(*this, "K", k, xType)) ||
      failed(verifyTmaRowStride(*this, "N", n, resultType)))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  auto aType = tensorType(getA());
  auto bType = tensorType(getB());
  auto resultType = tensorType(getResult());
  int64_t k = aType.getDimSize(1);

  // matmul_c5: b is fully static.
  if (bType.isDynamicDim(0))
    return emitOpError("b must have a static shape, got ") << bType;
  int64_t n = bType.getDimSize(1);

  // matmul_c1: the contraction sizes agree.
  if (bType.getDimSize(0) != k)
    return emitOpError("contraction size mismatch: a has K = ")
           << k << " but b has K = " << bType.getDimSize(0);

  // matmul_c2: the result is [M, N].
  if (resultType.getDimSize(1) != n ||
      isStaticMismatch(resultType.getDimSize(0), aType.getDimSize(0)))
    return emitOpError("expected result shape ")
           << dimString(aType.getDimSize(0)) << "x" << n << ", got "
           << resultType;

  // matmul_c3: one element type for the operands.
  if (failed(verifySameElementType(*this, getB(), "b", getA(), "a")))
    return failure();

  // matmul_c4: TMA strides of a (K), b and the result (N).
  if (failed(verifyTmaRowStride(*this, "K", k, aType)) ||
      failed(verifyTmaRowStride(*this, "N", n, bType)) ||
      failed(verifyTmaRowStride(*this, "N", n, resultType)))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// RMSNormOp
//===----------------------------------------------------------------------===//

LogicalResult RMSNormOp::verify() {
  int64_t d = tensorType(getX()).getDimSize(1);
  // rms_norm_c1, rms_norm_c2, rms_norm_c3, rms_norm_c4.
  if (failed(verifyVectorSize(*this, getGamma(), "gamma", d)) ||
      failed(verifyResultMatches(*this, getX(), "x")) ||
      failed(verifySameElementType(*this, getGamma(), "gamma", getX(), "x")) ||
      failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// LayerNormOp
//===----------------------------------------------------------------------===//

LogicalResult LayerNormOp::verify() {
  int64_t d = tensorType(getX()).getDimSize(1);
  // layer_norm_c1 .. layer_norm_c4.
  if (failed(verifyVectorSize(*this, getGamma(), "gamma", d)) ||
      failed(verifyVectorSize(*this, getBeta(), "beta", d)) ||
      failed(verifyResultMatches(*this, getX(), "x")) ||
      failed(verifySameElementType(*this, getGamma(), "gamma", getX(), "x")) ||
      failed(verifySameElementType(*this, getBeta(), "beta", getX(), "x")) ||
      failed(verifyEpsilon(*this, getEpsilon())))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// AddOp, MulOp
//===----------------------------------------------------------------------===//

/// Verifies `<op>_c1` .. `<op>_c3` of the broadcasting binary ops.
static LogicalResult verifyBroadcastBinary(Operation *op, Value a, Value b) {
  auto aType = tensorType(a);
  auto bType = tensorType(b);
  int64_t n = aType.getDimSize(1);
  // <op>_c1: b is [M, N], [N] or [M, 1].
  if (bType.getRank() == 1) {
    if (bType.getDimSize(0) != n)
      return op->emitOpError("broadcast operand b has ")
             << dimString(bType.getDimSize(0)) << " elements but a has " << n
             << " columns";
  } else {
    // A single column broadcasts over the columns: a per-row statistic.
    if (bType.getDimSize(1) != n && bType.getDimSize(1) != 1)
      return op->emitOpError("b has ")
             << bType.getDimSize(1) << " columns but a has " << n;
    if (failed(verifyRows(op, b, "b", aType.getDimSize(0), "a")))
      return failure();
  }
  // <op>_c2 and <op>_c3.
  if (failed(verifyResultMatches(op, a, "a")) ||
      failed(verifySameElementType(op, b, "b", a, "a")))
    return failure();
  SmallVector<RowOperand> rows = {{a, "a"}, {op->getResult(0), "the result"}};
  if (bType.getRank() == 2)
    rows.push_back({b, "b"});
  return verifyCommonRows(op, rows);
}

LogicalResult AddOp::verify() {
  return verifyBroadcastBinary(*this, getA(), getB());
}
LogicalResult MulOp::verify() {
  return verifyBroadcastBinary(*this, getA(), getB());
}

//===----------------------------------------------------------------------===//
// AddOuterOp and MulOuterOp
//===----------------------------------------------------------------------===//

/// The constraints an outer-product update shares (c1, c2 and the rows): a
/// per-row column `u`, a per-column vector `v` of a's element type, and the
/// result of a's type. `uTypes` checks u's element type.
template <typename OuterOp>
static LogicalResult verifyOuterUpdate(OuterOp op,
                                       function_ref<LogicalResult()> uTypes) {
  int64_t n = tensorType(op.getA()).getDimSize(1);
  if (tensorType(op.getU()).getDimSize(1) != 1)
    return op.emitOpError("u must be a per-row column [M, 1], got ")
           << op.getU().getType();
  if (tensorType(op.getV()).getDimSize(0) != n)
    return op.emitOpError("v has ")
           << tensorType(op.getV()).getDimSize(0) << " elements but a has " << n
           << " columns";
  if (failed(verifyResultMatches(op, op.getA(), "a")) || failed(uTypes()) ||
      failed(verifySameElementType(op, op.getV(), "v", op.getA(), "a")))
    return failure();
  return verifyCommonRows(
      op, {{op.getA(), "a"}, {op.getU(), "u"}, {op.getResult(), "the result"}});
}

LogicalResult AddOuterOp::verify() {
  // add_outer_c1 - add_outer_c3: u too has a's element type.
  return verifyOuterUpdate(*this, [&] {
    return verifySameElementType(*this, getU(), "u", getA(), "a");
  });
}

LogicalResult MulOuterOp::verify() {
  // mul_outer_c1 - mul_outer_c3: u has a's element type or f32 (a row
  // statistic's).
  return verifyOuterUpdate(*this, [&]() -> LogicalResult {
    Type a = tensorType(getA()).getElementType();
    Type u = tensorType(getU()).getElementType();
    if (u == a || u.isF32())
      return success();
    return emitOpError("u must have a's element type ")
           << a << " or f32, got " << u;
  });
}

//===----------------------------------------------------------------------===//
// ScaleOp
//===----------------------------------------------------------------------===//

LogicalResult ScaleOp::verify() {
  // scale_c1.
  if (failed(verifyResultMatches(*this, getX(), "x")))
    return failure();
  // scale_c2.
  if (!getFactor().isFinite())
    return emitOpError("factor must be finite, got ")
           << getFactor().convertToFloat();
  return success();
}

//===----------------------------------------------------------------------===//
// Activations
//===----------------------------------------------------------------------===//

// <op>_c1 of every activation: the result has the type of x.
LogicalResult SiLUOp::verify() {
  return verifyResultMatches(*this, getX(), "x");
}
LogicalResult ReLUOp::verify() {
  return verifyResultMatches(*this, getX(), "x");
}
LogicalResult SigmoidOp::verify() {
  return verifyResultMatches(*this, getX(), "x");
}
LogicalResult TanhOp::verify() {
  return verifyResultMatches(*this, getX(), "x");
}
LogicalResult GELUOp::verify() {
  return verifyResultMatches(*this, getX(), "x");
}

//===----------------------------------------------------------------------===//
// SwiGLUOp
//===----------------------------------------------------------------------===//

LogicalResult SwiGLUOp::verify() {
  auto gateType = tensorType(getGate());
  auto upType = tensorType(getUp());
  // swiglu_c1: gate and up agree.
  if (gateType.getDimSize(1) != upType.getDimSize(1))
    return emitOpError("gate has ")
           << gateType.getDimSize(1) << " columns but up has "
           << upType.getDimSize(1);
  if (failed(
          verifyRows(*this, getUp(), "up", gateType.getDimSize(0), "gate")) ||
      failed(verifySameElementType(*this, getUp(), "up", getGate(), "gate")))
    return failure();
  // swiglu_c2.
  if (failed(verifyResultMatches(*this, getGate(), "gate")))
    return failure();
  return verifyCommonRows(
      *this,
      {{getGate(), "gate"}, {getUp(), "up"}, {getResult(), "the result"}});
}

//===----------------------------------------------------------------------===//
// RoPEOp
//===----------------------------------------------------------------------===//

LogicalResult RoPEOp::verify() {
  auto xType = tensorType(getX());
  int64_t width = xType.getDimSize(1);
  int64_t headDim = getHeadDim();

  // rope_c1: a positive, even head dimension.
  if (headDim <= 0 || headDim % 2 != 0)
    return emitOpError("head_dim must be positive and even, got ") << headDim;

  // rope_c2: whole heads.
  if (width % headDim != 0)
    return emitOpError("head_dim = ")
           << headDim << " does not divide the width " << width << " of x";

  // rope_c3: one angle per pair and row.
  for (auto [table, name] : {std::pair{getCos(), "cos"}, {getSin(), "sin"}}) {
    int64_t tableWidth = tensorType(table).getDimSize(1);
    if (tableWidth != headDim / 2)
      return emitOpError() << name << " has " << tableWidth
                           << " columns but head_dim / 2 = " << headDim / 2;
    if (failed(verifyRows(*this, table, name, xType.getDimSize(0), "x")))
      return failure();
  }

  // rope_c4.
  if (failed(verifyResultMatches(*this, getX(), "x")))
    return failure();
  return verifyCommonRows(*this, {{getX(), "x"},
                                  {getCos(), "cos"},
                                  {getSin(), "sin"},
                                  {getResult(), "the result"}});
}

//===----------------------------------------------------------------------===//
// SliceOp
//===----------------------------------------------------------------------===//

LogicalResult SliceOp::verify() {
  auto xType = tensorType(getX());
  auto resultType = tensorType(getResult());
  int64_t width = xType.getDimSize(1);
  int64_t offset = getOffset(), size = getSize();

  // slice_c1: a non-empty range inside x.
  if (offset < 0)
    return emitOpError("offset must not be negative, got ") << offset;
  if (size <= 0)
    return emitOpError("size must be positive, got ") << size;
  if (offset > width - size)
    return emitOpError("columns from offset ")
           << offset << " of size " << size << " do not fit in the " << width
           << " columns of x";

  // slice_c2: the result is [M, size].
  if (resultType.getDimSize(1) != size ||
      isStaticMismatch(resultType.getDimSize(0), xType.getDimSize(0)))
    return emitOpError("expected result shape ")
           << dimString(xType.getDimSize(0)) << "x" << size << ", got "
           << resultType;
  return verifySameElementType(*this, getResult(), "result", getX(), "x");
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::verify() {
  // concat_c1: at least one input.
  if (getInputs().empty())
    return emitOpError("needs at least one input");

  // concat_c2: one element type and one row count.
  Value first = getInputs().front();
  int64_t rows = tensorType(first).getDimSize(0);
  int64_t width = 0;
  for (auto [index, input] : llvm::enumerate(getInputs())) {
    std::string name = "input #" + std::to_string(index);
    if (failed(verifySameElementType(*this, input, name, first, "input #0")) ||
        failed(verifyRows(*this, input, name, rows, "input #0")))
      return failure();
    width += tensorType(input).getDimSize(1);
  }

  // concat_c3: the result spans every input.
  auto resultType = tensorType(getResult());
  if (resultType.getDimSize(1) != width ||
      isStaticMismatch(resultType.getDimSize(0), rows))
    return emitOpError("expected result shape ")
           << dimString(rows) << "x" << width << ", got " << resultType;
  if (failed(verifySameElementType(*this, getResult(), "result", first,
                                   "input #0")))
    return failure();
  SmallVector<RowOperand> rowOperands;
  for (auto [index, input] : llvm::enumerate(getInputs()))
    rowOperands.push_back({input, "input #" + std::to_string(index)});
  rowOperands.push_back({getResult(), "the result"});
  return verifyCommonRows(*this, rowOperands);
}

//===----------------------------------------------------------------------===//
// CrossEntropyOp
//===----------------------------------------------------------------------===//

LogicalResult LogSumExpOp::verify() {
  // log_sum_exp_c1.
  auto type = tensorType(getResult());
  int64_t rows = tensorType(getX()).getDimSize(0);
  if (type.getDimSize(1) != 1 || isStaticMismatch(type.getDimSize(0), rows))
    return emitOpError("expected a result of type tensor<")
           << dimString(rows) << "x1xf32>, got " << type;
  return success();
}

LogicalResult CrossEntropyOp::verify() {
  auto logitsType = tensorType(getLogits());
  int64_t rows = logitsType.getDimSize(0);

  // cross_entropy_c1: one target per row.
  if (failed(verifyRows(*this, getTargets(), "targets", rows, "logits")))
    return failure();

  // cross_entropy_c2: a scalar, or one loss per row.
  auto resultType = tensorType(getResult());
  if (getReduction() == "none") {
    if (resultType.getRank() != 1 ||
        isStaticMismatch(resultType.getDimSize(0), rows))
      return emitOpError("reduction \"none\" expects a result of type "
                         "tensor<")
             << dimString(rows) << "xf32>, got " << resultType;
    return verifyCommonRows(*this, {{getLogits(), "logits"},
                                    {getTargets(), "targets"},
                                    {getResult(), "the result"}});
  }
  if (resultType.getRank() != 0)
    return emitOpError("reduction \"")
           << getReduction() << "\" expects a result of type tensor<f32>, got "
           << resultType;
  return verifyCommonRows(*this,
                          {{getLogits(), "logits"}, {getTargets(), "targets"}});
}

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

LogicalResult AttentionOp::verify() {
  int64_t heads = getNumHeads(), kvHeads = getNumKvHeads();
  int64_t headDim = getHeadDim(), seqLen = getSeqLen();

  // attention_c1: positive sizes, whole groups of query heads.
  for (auto [value, name] : {std::pair{heads, "num_heads"},
                             {kvHeads, "num_kv_heads"},
                             {headDim, "head_dim"},
                             {seqLen, "seq_len"}})
    if (value <= 0)
      return emitOpError() << name << " must be positive, got " << value;
  if (heads % kvHeads != 0)
    return emitOpError("num_kv_heads = ")
           << kvHeads << " does not divide num_heads = " << heads;

  // attention_c2: operand widths and rows.
  int64_t qWidth, kvWidth;
  if (llvm::MulOverflow(heads, headDim, qWidth) ||
      llvm::MulOverflow(kvHeads, headDim, kvWidth))
    return emitOpError("num_heads = ")
           << heads << ", num_kv_heads = " << kvHeads
           << " and head_dim = " << headDim
           << " give widths that overflow 64 bits";
  auto qType = tensorType(getQ());
  int64_t rows = qType.getDimSize(0);
  if (qType.getDimSize(1) != qWidth)
    return emitOpError("q has ")
           << qType.getDimSize(1)
           << " columns but num_heads * head_dim = " << qWidth;
  for (auto [value, name] : {std::pair{getK(), "k"}, {getV(), "v"}}) {
    int64_t width = tensorType(value).getDimSize(1);
    if (width != kvWidth)
      return emitOpError() << name << " has " << width
                           << " columns but num_kv_heads * head_dim = "
                           << kvWidth;
    if (failed(verifyRows(*this, value, name, rows, "q")))
      return failure();
    // attention_c3: one element type.
    if (failed(verifySameElementType(*this, value, name, getQ(), "q")))
      return failure();
  }
  if (failed(verifyResultMatches(*this, getQ(), "q")))
    return failure();
  FailureOr<int64_t> commonRows =
      verifyCommonRows(*this, {{getQ(), "q"},
                               {getK(), "k"},
                               {getV(), "v"},
                               {getResult(), "the result"}});
  if (failed(commonRows))
    return failure();
  rows = *commonRows;

  // attention_c4: whole sequences.
  if (!ShapedType::isDynamic(rows) && rows % seqLen != 0)
    return emitOpError("row count ")
           << rows << " is not a multiple of seq_len = " << seqLen;
  return success();
}

//===----------------------------------------------------------------------===//
// Custom assembly directives
//===----------------------------------------------------------------------===//

/// Parses `%a, [%w...] (+ %a, [%w...])*`: the products summed into the
/// accumulator.
static ParseResult
parseGemmProducts(OpAsmParser &parser,
                  SmallVectorImpl<OpAsmParser::UnresolvedOperand> &a,
                  SmallVectorImpl<OpAsmParser::UnresolvedOperand> &b) {
  do {
    if (parser.parseOperand(a.emplace_back()) || parser.parseComma() ||
        parser.parseOperandList(b, OpAsmParser::Delimiter::Square))
      return failure();
  } while (succeeded(parser.parseOptionalPlus()));
  return success();
}

static void printGemmProducts(OpAsmPrinter &printer, GemmOp gemm,
                              OperandRange a, OperandRange b) {
  // Only verified ops print in this form.
  for (auto [product, value] : llvm::enumerate(a)) {
    if (product > 0)
      printer << " + ";
    printer << value << ", [" << gemm.getProductWeights(product) << "]";
  }
}

#define GET_OP_CLASSES
#include "coda/Dialect/Coda/IR/CodaOps.cpp.inc"
