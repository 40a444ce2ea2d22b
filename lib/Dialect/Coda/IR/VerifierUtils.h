//===- VerifierUtils.h - checks shared by coda op verifiers -----*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Private to the IR library: the shape and type checks that several op
// verifiers share, each producing a diagnostic with the numbers involved.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_DIALECT_CODA_IR_VERIFIERUTILS_H
#define CODA_LIB_DIALECT_CODA_IR_VERIFIERUTILS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/APFloat.h"

#include <string>

namespace mlir::coda::detail {

inline RankedTensorType tensorType(Value value) {
  return cast<RankedTensorType>(value.getType());
}

/// Returns true when both sizes are static and differ.
inline bool isStaticMismatch(int64_t a, int64_t b) {
  return !ShapedType::isDynamic(a) && !ShapedType::isDynamic(b) && a != b;
}

/// Prints a dimension size the way the tensor type does: `?` when dynamic.
inline std::string dimString(int64_t size) {
  return ShapedType::isDynamic(size) ? std::string("?") : std::to_string(size);
}

inline int64_t elementBytes(Type type) {
  return getElementTypeOrSelf(type).getIntOrFloatBitWidth() / 8;
}

/// Checks that `value` has `rows` rows when both counts are static.
inline LogicalResult verifyRows(Operation *op, Value value, StringRef name,
                                int64_t rows, StringRef rowSource) {
  int64_t actual = tensorType(value).getDimSize(0);
  if (isStaticMismatch(actual, rows))
    return op->emitOpError() << name << " has " << actual << " rows but "
                             << rowSource << " has " << rows;
  return success();
}

/// A tensor whose first dimension counts rows, with the name diagnostics use.
struct RowOperand {
  Value value;
  std::string name;
};

/// Checks that all static row counts among `operands` agree and returns the
/// common count (dynamic when none is static).
inline FailureOr<int64_t> verifyCommonRows(Operation *op,
                                           ArrayRef<RowOperand> operands) {
  const RowOperand *reference = nullptr;
  for (const RowOperand &operand : operands) {
    int64_t rows = tensorType(operand.value).getDimSize(0);
    if (ShapedType::isDynamic(rows))
      continue;
    if (!reference) {
      reference = &operand;
      continue;
    }
    int64_t expected = tensorType(reference->value).getDimSize(0);
    if (rows != expected)
      return op->emitOpError()
             << operand.name << " has " << rows << " rows but "
             << reference->name << " has " << expected;
  }
  return reference ? tensorType(reference->value).getDimSize(0)
                   : ShapedType::kDynamic;
}

/// Checks that the result has exactly the shape and element type of `value`.
inline LogicalResult verifyResultMatches(Operation *op, Value value,
                                         StringRef name) {
  auto expected = tensorType(value);
  auto actual = tensorType(op->getResult(0));
  if (expected.getElementType() != actual.getElementType())
    return op->emitOpError("result element type ")
           << actual.getElementType() << " differs from " << name << "'s "
           << expected.getElementType();
  if (expected.getDimSize(1) != actual.getDimSize(1) ||
      isStaticMismatch(expected.getDimSize(0), actual.getDimSize(0)))
    return op->emitOpError("result shape ")
           << dimString(actual.getDimSize(0)) << "x" << actual.getDimSize(1)
           << " differs from " << name << "'s "
           << dimString(expected.getDimSize(0)) << "x"
           << expected.getDimSize(1);
  return success();
}

/// Checks that `value` has the element type of `reference`.
inline LogicalResult verifySameElementType(Operation *op, Value value,
                                           StringRef name, Value reference,
                                           StringRef referenceName) {
  Type actual = tensorType(value).getElementType();
  Type expected = tensorType(reference).getElementType();
  if (actual != expected)
    return op->emitOpError() << name << " has element type " << actual
                             << " but " << referenceName << " has " << expected;
  return success();
}

/// Checks that a per-feature vector has `size` elements.
inline LogicalResult verifyVectorSize(Operation *op, Value vector,
                                      StringRef name, int64_t size) {
  int64_t actual = tensorType(vector).getDimSize(0);
  if (actual != size)
    return op->emitOpError()
           << name << " has " << dimString(actual)
           << " elements but the rows have " << size << " features";
  return success();
}

/// Checks that a row of `size` elements of `type` meets TMA's 16-byte stride
/// rule.
inline LogicalResult verifyTmaRowStride(Operation *op, StringRef what,
                                        int64_t size, Type type) {
  int64_t bytes = elementBytes(type);
  if ((size * bytes) % 16 == 0)
    return success();
  return op->emitOpError() << what << " = " << size << " gives rows of "
                           << size * bytes << " bytes in "
                           << getElementTypeOrSelf(type)
                           << "; TMA needs a multiple of 16 bytes (" << what
                           << " a multiple of " << 16 / bytes << ")";
}

inline LogicalResult verifyEpsilon(Operation *op, APFloat epsilon) {
  // -0.0 is zero, which PyTorch allows.
  if (!epsilon.isFinite() || (epsilon.isNegative() && !epsilon.isZero()))
    return op->emitOpError("epsilon must be finite and not negative, got ")
           << epsilon.convertToFloat();
  return success();
}

} // namespace mlir::coda::detail

#endif // CODA_LIB_DIALECT_CODA_IR_VERIFIERUTILS_H
