//===- HostTensor.cpp - tensors in host memory for coda-run ---------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda/Runner/HostTensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/ErrorHandling.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::coda;

std::optional<ElementKind> mlir::coda::getElementKind(Type type) {
  if (isa<BFloat16Type>(type))
    return ElementKind::BF16;
  if (isa<Float16Type>(type))
    return ElementKind::F16;
  if (isa<Float32Type>(type))
    return ElementKind::F32;
  if (isa<Float64Type>(type))
    return ElementKind::F64;
  if (auto intType = dyn_cast<IntegerType>(type)) {
    if (intType.isUnsigned())
      return std::nullopt;
    if (intType.getWidth() == 32)
      return ElementKind::I32;
    if (intType.getWidth() == 64)
      return ElementKind::I64;
  }
  return std::nullopt;
}

llvm::StringRef mlir::coda::getElementKindName(ElementKind kind) {
  switch (kind) {
  case ElementKind::BF16:
    return "bf16";
  case ElementKind::F16:
    return "f16";
  case ElementKind::F32:
    return "f32";
  case ElementKind::F64:
    return "f64";
  case ElementKind::I32:
    return "i32";
  case ElementKind::I64:
    return "i64";
  }
  llvm_unreachable("unknown element kind");
}

size_t mlir::coda::getElementBytes(ElementKind kind) {
  switch (kind) {
  case ElementKind::BF16:
  case ElementKind::F16:
    return 2;
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::F64:
  case ElementKind::I64:
    return 8;
  }
  llvm_unreachable("unknown element kind");
}

bool mlir::coda::isFloatKind(ElementKind kind) {
  return kind != ElementKind::I32 && kind != ElementKind::I64;
}

//===----------------------------------------------------------------------===//
// 16-bit floating-point formats
//===----------------------------------------------------------------------===//

namespace {
/// A binary interchange format narrower than double: bf16 or f16.
struct HalfFormat {
  unsigned exponentBits;
  unsigned mantissaBits;

  int bias() const { return (1 << (exponentBits - 1)) - 1; }
  uint16_t signMask() const {
    return uint16_t(1u << (exponentBits + mantissaBits));
  }
  uint16_t exponentMask() const {
    return uint16_t(((1u << exponentBits) - 1) << mantissaBits);
  }
  uint16_t mantissaMask() const { return uint16_t((1u << mantissaBits) - 1); }
};
} // namespace

static constexpr HalfFormat bf16Format{8, 7};
static constexpr HalfFormat f16Format{5, 10};

/// Rounds `value` to nearest even in `format` and returns its bit pattern.
/// The rounding is done once, from the bits of the double, so no double
/// rounding through float can occur. NaN becomes the quiet NaN of the same
/// sign; values beyond the largest finite number round to infinity.
static uint16_t encodeHalf(double value, HalfFormat format) {
  uint64_t bits = llvm::bit_cast<uint64_t>(value);
  uint16_t sign = (bits >> 63) ? format.signMask() : 0;
  int biasedExponent = int((bits >> 52) & 0x7ff);
  uint64_t fraction = bits & ((uint64_t(1) << 52) - 1);

  if (biasedExponent == 0x7ff) {
    if (fraction != 0)
      return sign | format.exponentMask() |
             uint16_t(1u << (format.mantissaBits - 1));
    return sign | format.exponentMask();
  }
  if (biasedExponent == 0 && fraction == 0)
    return sign;

  // |value| = significand * 2^(exponent - 52), for normal and subnormal
  // doubles alike.
  uint64_t significand = fraction;
  int exponent = -1022;
  if (biasedExponent != 0) {
    significand |= uint64_t(1) << 52;
    exponent = biasedExponent - 1023;
  }

  // The result is q * 2^(targetExponent - mantissaBits); below the normal
  // range the quantum stays that of the smallest normal exponent, which
  // yields the subnormals.
  int minExponent = 1 - format.bias();
  int targetExponent = std::max(exponent, minExponent);
  int shift = 52 - int(format.mantissaBits) + (targetExponent - exponent);
  uint64_t quotient = 0;
  // A shift of 55 or more leaves the significand below half a quantum.
  if (shift < 55) {
    quotient = significand >> shift;
    uint64_t remainder = significand & ((uint64_t(1) << shift) - 1);
    uint64_t half = uint64_t(1) << (shift - 1);
    if (remainder > half || (remainder == half && (quotient & 1)))
      ++quotient;
  }

  // Adding the quotient lets its implicit bit, and any carry out of the
  // mantissa from rounding up, increment the exponent field; for a
  // subnormal result the exponent field is zero.
  int64_t result =
      (int64_t(targetExponent + format.bias() - 1) << format.mantissaBits) +
      int64_t(quotient);
  if (result >= int64_t(format.exponentMask()))
    return sign | format.exponentMask();
  return sign | uint16_t(result);
}

/// Returns the exact double value of the bit pattern `bits` in `format`.
static double decodeHalf(uint16_t bits, HalfFormat format) {
  bool negative = bits & format.signMask();
  int exponentField = (bits & format.exponentMask()) >> format.mantissaBits;
  int mantissa = bits & format.mantissaMask();
  double magnitude;
  if (exponentField == (1 << format.exponentBits) - 1) {
    magnitude = mantissa ? std::numeric_limits<double>::quiet_NaN()
                         : std::numeric_limits<double>::infinity();
  } else if (exponentField == 0) {
    magnitude = std::ldexp(double(mantissa),
                           1 - format.bias() - int(format.mantissaBits));
  } else {
    magnitude =
        std::ldexp(double(mantissa | (1 << format.mantissaBits)),
                   exponentField - format.bias() - int(format.mantissaBits));
  }
  return negative ? -magnitude : magnitude;
}

/// Converts `value` toward zero to an integer of type `T`, saturating at
/// its range; NaN becomes zero.
template <typename T>
static T truncateToInteger(double value) {
  if (std::isnan(value))
    return 0;
  // Both bounds are powers of two, so they are exact in double.
  double lower = double(std::numeric_limits<T>::min());
  double upper = -lower;
  value = std::trunc(value);
  if (value < lower)
    return std::numeric_limits<T>::min();
  if (value >= upper)
    return std::numeric_limits<T>::max();
  return T(value);
}

//===----------------------------------------------------------------------===//
// HostTensor
//===----------------------------------------------------------------------===//

HostTensor::HostTensor(ElementKind kind, llvm::ArrayRef<int64_t> shape)
    : kind(kind), shape(shape.begin(), shape.end()) {
  assert(llvm::all_of(shape, [](int64_t dim) { return dim >= 0; }) &&
         "host tensors have static, non-negative dimensions");
  bytes.assign(size_t(getNumElements()) * getElementBytes(kind), 0);
}

int64_t HostTensor::getNumElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

double HostTensor::get(int64_t index) const {
  assert(index >= 0 && index < getNumElements() && "index out of range");
  const uint8_t *element = bytes.data() + index * getElementBytes(kind);
  switch (kind) {
  case ElementKind::BF16: {
    uint16_t bits;
    std::memcpy(&bits, element, sizeof(bits));
    return decodeHalf(bits, bf16Format);
  }
  case ElementKind::F16: {
    uint16_t bits;
    std::memcpy(&bits, element, sizeof(bits));
    return decodeHalf(bits, f16Format);
  }
  case ElementKind::F32: {
    float value;
    std::memcpy(&value, element, sizeof(value));
    return value;
  }
  case ElementKind::F64: {
    double value;
    std::memcpy(&value, element, sizeof(value));
    return value;
  }
  case ElementKind::I32: {
    int32_t value;
    std::memcpy(&value, element, sizeof(value));
    return value;
  }
  case ElementKind::I64: {
    int64_t value;
    std::memcpy(&value, element, sizeof(value));
    return double(value);
  }
  }
  llvm_unreachable("unknown element kind");
}

void HostTensor::set(int64_t index, double value) {
  assert(index >= 0 && index < getNumElements() && "index out of range");
  uint8_t *element = bytes.data() + index * getElementBytes(kind);
  switch (kind) {
  case ElementKind::BF16: {
    uint16_t bits = encodeHalf(value, bf16Format);
    std::memcpy(element, &bits, sizeof(bits));
    return;
  }
  case ElementKind::F16: {
    uint16_t bits = encodeHalf(value, f16Format);
    std::memcpy(element, &bits, sizeof(bits));
    return;
  }
  case ElementKind::F32: {
    // IEEE conversion: round to nearest even, overflowing to infinity.
    float narrow = float(value);
    std::memcpy(element, &narrow, sizeof(narrow));
    return;
  }
  case ElementKind::F64:
    std::memcpy(element, &value, sizeof(value));
    return;
  case ElementKind::I32: {
    int32_t narrow = truncateToInteger<int32_t>(value);
    std::memcpy(element, &narrow, sizeof(narrow));
    return;
  }
  case ElementKind::I64: {
    int64_t narrow = truncateToInteger<int64_t>(value);
    std::memcpy(element, &narrow, sizeof(narrow));
    return;
  }
  }
  llvm_unreachable("unknown element kind");
}

HostTensor HostTensor::convertedTo(ElementKind newKind) const {
  if (newKind == kind)
    return *this;
  HostTensor result(newKind, shape);
  for (int64_t i = 0, e = getNumElements(); i < e; ++i)
    result.set(i, get(i));
  return result;
}

std::string HostTensor::getTypeString() const {
  std::string result = "tensor<";
  for (int64_t dim : shape)
    result += std::to_string(dim) + "x";
  result += getElementKindName(kind).str();
  result += ">";
  return result;
}

double mlir::coda::relativeError(const HostTensor &value,
                                 const HostTensor &reference) {
  assert(value.getShape() == reference.getShape() &&
         "relative error of tensors of different shapes");
  double differenceSquares = 0.0;
  double referenceSquares = 0.0;
  for (int64_t i = 0, e = reference.getNumElements(); i < e; ++i) {
    double expected = reference.get(i);
    double difference = value.get(i) - expected;
    differenceSquares += difference * difference;
    referenceSquares += expected * expected;
  }
  if (referenceSquares == 0.0)
    return std::sqrt(differenceSquares);
  return std::sqrt(differenceSquares / referenceSquares);
}

int64_t mlir::coda::countNonFinite(const HostTensor &tensor) {
  if (!isFloatKind(tensor.getKind()))
    return 0;
  int64_t count = 0;
  for (int64_t i = 0, e = tensor.getNumElements(); i < e; ++i)
    if (!std::isfinite(tensor.get(i)))
      ++count;
  return count;
}
