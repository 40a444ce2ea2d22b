//===- CodaGradOps.cpp - coda gradient operation verifiers ----------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every check carries the label of the constraint it enforces, as listed in
// the op's description in CodaGradOps.td and exercised in
// test/Dialect/Coda/grad-ops-invalid.mlir.
//
//===----------------------------------------------------------------------===//

#include "coda/Dialect/Coda/IR/CodaOps.h"

#include "VerifierUtils.h"

using namespace mlir;
using namespace mlir::coda;
using namespace mlir::coda::detail;

/// Checks that `value` has exactly the type of `reference` (rows compared
/// when both are static).
static LogicalResult verifySameMatrix(Operation *op, Value value,
                                      StringRef name, Value reference,
                                      StringRef referenceName) {
  auto type = tensorType(value);
  auto expected = tensorType(reference);
  if (type.getElementType() != expected.getElementType() ||
      type.getRank() != expected.getRank() ||
      type.getDimSize(1) != expected.getDimSize(1) ||
      isStaticMismatch(type.getDimSize(0), expected.getDimSize(0)))
    return op->emitOpError() << name << " has type " << type << " but "
                             << referenceName << " has " << expected;
  return success();
}

/// Checks that `vector` is `[D]` of `reference`'s element type.
static LogicalResult verifySameVector(Operation *op, Value vector,
                                      StringRef name, Value reference,
                                      StringRef referenceName) {
  if (tensorType(vector) != tensorType(reference))
    return op->emitOpError()
           << name << " has type " << vector.getType() << " but "
           << referenceName << " has " << reference.getType();
  return success();
}

//===----------------------------------------------------------------------===//
// TransposedMatmulOp
//===----------------------------------------------------------------------===//

LogicalResult TransposedMatmulOp::verify() {
  auto aType = tensorType(getA());
  auto bType = tensorType(getB());
  auto resultType = tensorType(getResult());
  // transposed_matmul_c1.
  if (failed(verifyRows(*this, getB(), "b", aType.getDimSize(0), "a")))
    return failure();
  // transposed_matmul_c2.
  if (resultType.isDynamicDim(0) ||
      resultType.getDimSize(0) != aType.getDimSize(1) ||
      resultType.getDimSize(1) != bType.getDimSize(1))
    return emitOpError("expected result shape ")
           << aType.getDimSize(1) << "x" << bType.getDimSize(1) << ", got "
           << resultType;
  return success();
}

//===----------------------------------------------------------------------===//
// SumRowsOp
//===----------------------------------------------------------------------===//

LogicalResult SumRowsOp::verify() {
  // sum_rows_c1.
  int64_t n = tensorType(getX()).getDimSize(1);
  int64_t size = tensorType(getResult()).getDimSize(0);
  if (size != n)
    return emitOpError("expected a result of ")
           << n << " elements, one per column of x, got " << dimString(size);
  return success();
}

//===----------------------------------------------------------------------===//
// RMSNormGradOp, LayerNormGradOp
//===----------------------------------------------------------------------===//

/// The checks the two norm gradients share: `<op>_c1` .. `<op>_c3` for the
/// results in `vectorGrads`.
static LogicalResult verifyNormGrad(Operation *op, Value x, Value gamma,
                                    Value dy, Value dx, ValueRange vectorGrads,
                                    APFloat epsilon) {
  int64_t d = tensorType(x).getDimSize(1);
  if (failed(verifyVectorSize(op, gamma, "gamma", d)) ||
      failed(verifySameElementType(op, gamma, "gamma", x, "x")) ||
      failed(verifySameMatrix(op, dy, "dy", x, "x")) ||
      failed(verifySameMatrix(op, dx, "dx", x, "x")))
    return failure();
  for (Value grad : vectorGrads)
    if (failed(
            verifySameVector(op, grad, "the vector gradient", gamma, "gamma")))
      return failure();
  return verifyEpsilon(op, epsilon);
}

/// Checks that `value` is `[rows, 1]`, one value per row.
static LogicalResult verifyPerRow(Operation *op, Value value, StringRef name,
                                  int64_t rows) {
  auto type = tensorType(value);
  if (type.getDimSize(1) != 1 || isStaticMismatch(type.getDimSize(0), rows))
    return op->emitOpError("expected ")
           << name << " of type tensor<" << dimString(rows)
           << "x1xf32>, one per row, got " << type;
  return success();
}

LogicalResult RMSNormGradOp::verify() {
  // rms_norm_grad_c1 - c3.
  if (failed(verifyNormGrad(*this, getX(), getGamma(), getDy(), getDx(),
                            getDgamma(), getEpsilon())))
    return failure();
  // rms_norm_grad_c4.
  int64_t rows = tensorType(getX()).getDimSize(0);
  if (Value rowDot = getRowDot();
      rowDot && failed(verifyPerRow(*this, rowDot, "row_dot", rows)))
    return failure();
  if (Value rstd = getRstd();
      rstd && failed(verifyPerRow(*this, rstd, "rstd", rows)))
    return failure();
  return success();
}

/// The checks of a norm gradient's GPU form: `<op>_c1` and `_c3` with the
/// residual, and `<op>_c2` for each of `partials`, which share their row
/// count.
static LogicalResult verifyNormGradPartials(Operation *op, Value x, Value gamma,
                                            Value dy, Value residual, Value dx,
                                            ValueRange partials,
                                            APFloat epsilon) {
  if (failed(verifyNormGrad(op, x, gamma, dy, dx, {}, epsilon)) ||
      (residual && failed(verifySameMatrix(op, residual, "residual", x, "x"))))
    return failure();
  int64_t d = tensorType(x).getDimSize(1);
  for (Value value : partials) {
    auto type = tensorType(value);
    if (type.isDynamicDim(0) || type.getDimSize(0) <= 0 ||
        type.getDimSize(1) != d)
      return op->emitOpError("expected partials of a static, positive number "
                             "of rows and ")
             << d << " columns, got " << type;
    if (type != tensorType(partials.front()))
      return op->emitOpError("expected both partials of one type, got ")
             << tensorType(partials.front()) << " and " << type;
  }
  return success();
}

LogicalResult RMSNormGradPartialsOp::verify() {
  // rms_norm_grad_partials_c1 - c3.
  return verifyNormGradPartials(*this, getX(), getGamma(), getDy(),
                                getResidual(), getDx(), getPartials(),
                                getEpsilon());
}

LogicalResult LayerNormGradPartialsOp::verify() {
  // layer_norm_grad_partials_c1 - c3.
  return verifyNormGradPartials(
      *this, getX(), getGamma(), getDy(), getResidual(), getDx(),
      {getGammaPartials(), getBetaPartials()}, getEpsilon());
}

LogicalResult LayerNormGradOp::verify() {
  return verifyNormGrad(*this, getX(), getGamma(), getDy(), getDx(),
                        {getDgamma(), getDbeta()}, getEpsilon());
}

//===----------------------------------------------------------------------===//
// ActivationGradOp
//===----------------------------------------------------------------------===//

LogicalResult ActivationGradOp::verify() {
  // activation_grad_c1.
  if (failed(verifySameMatrix(*this, getDy(), "dy", getX(), "x")) ||
      failed(verifySameMatrix(*this, getResult(), "the result", getX(), "x")))
    return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// CrossEntropyGradOp
//===----------------------------------------------------------------------===//

/// Checks a cross-entropy cotangent against its reduction: a scalar for
/// "mean" and "sum", one per row for "none".
static LogicalResult verifyLossCotangent(Operation *op, Value dloss,
                                         StringRef reduction, int64_t rows) {
  auto dlossType = tensorType(dloss);
  if (reduction == "none") {
    if (dlossType.getRank() != 1 ||
        isStaticMismatch(dlossType.getDimSize(0), rows))
      return op->emitOpError("reduction \"none\" expects dloss of type tensor<")
             << dimString(rows) << "xf32>, got " << dlossType;
  } else if (dlossType.getRank() != 0) {
    return op->emitOpError("reduction \"")
           << reduction << "\" expects dloss of type tensor<f32>, got "
           << dlossType;
  }
  return success();
}

LogicalResult CrossEntropyGradOp::verify() {
  int64_t rows = tensorType(getLogits()).getDimSize(0);
  // cross_entropy_grad_c1.
  if (failed(verifyRows(*this, getTargets(), "targets", rows, "logits")))
    return failure();
  if (failed(verifyLossCotangent(*this, getDloss(), getReduction(), rows)))
    return failure();
  if (Value lse = getLse();
      lse && failed(verifyPerRow(*this, lse, "lse", rows)))
    return failure();
  // cross_entropy_grad_c2.
  return verifySameMatrix(*this, getResult(), "the result", getLogits(),
                          "logits");
}

//===----------------------------------------------------------------------===//
// CrossEntropyRowWeightsOp
//===----------------------------------------------------------------------===//

LogicalResult CrossEntropyRowWeightsOp::verify() {
  int64_t rows = tensorType(getTargets()).getDimSize(0);
  // cross_entropy_row_weights_c1, c2.
  if (failed(verifyLossCotangent(*this, getDloss(), getReduction(), rows)))
    return failure();
  return verifyPerRow(*this, getWeights(), "the result", rows);
}

//===----------------------------------------------------------------------===//
// SoftmaxTargetGradOp
//===----------------------------------------------------------------------===//

LogicalResult SoftmaxTargetGradOp::verify() {
  auto logitsType = tensorType(getLogits());
  int64_t rows = logitsType.getDimSize(0);
  // softmax_target_grad_c1.
  if (failed(verifyPerRow(*this, getLse(), "lse", rows)) ||
      failed(verifyPerRow(*this, getWeights(), "weights", rows)) ||
      failed(verifyRows(*this, getTargets(), "targets", rows, "logits")))
    return failure();
  // softmax_target_grad_c2.
  auto resultType = tensorType(getResult());
  if (resultType.getDimSize(1) != logitsType.getDimSize(1) ||
      isStaticMismatch(resultType.getDimSize(0), rows))
    return emitOpError("result shape ")
           << dimString(resultType.getDimSize(0)) << "x"
           << resultType.getDimSize(1) << " differs from the logits' "
           << dimString(rows) << "x" << logitsType.getDimSize(1);
  return success();
}
