//===- HostTensor.h - tensors in host memory for coda-run -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNNER_HOSTTENSOR_H
#define CODA_RUNNER_HOSTTENSOR_H

#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::coda {

/// The element types coda-run moves between files, generators and kernels.
enum class ElementKind { BF16, F16, F32, F64, I32, I64 };

/// Returns the kind of an MLIR element type, if it is one coda-run handles.
std::optional<ElementKind> getElementKind(Type type);

/// Returns the MLIR spelling: "bf16", "f16", "f32", "f64", "i32", "i64".
llvm::StringRef getElementKindName(ElementKind kind);

/// Returns the bytes of one element.
size_t getElementBytes(ElementKind kind);

/// Returns true for the floating-point kinds.
bool isFloatKind(ElementKind kind);

/// A dense row-major tensor in host memory, in its own element type (bf16
/// and f16 stored as their 16-bit patterns).
class HostTensor {
public:
  /// A rank-0 f32 zero.
  HostTensor() : HostTensor(ElementKind::F32, {}) {}
  /// A zero-filled tensor.
  HostTensor(ElementKind kind, llvm::ArrayRef<int64_t> shape);

  ElementKind getKind() const { return kind; }
  llvm::ArrayRef<int64_t> getShape() const { return shape; }
  int64_t getNumElements() const;
  /// The raw storage, `getNumElements() * getElementBytes(kind)` bytes.
  uint8_t *data() { return bytes.data(); }
  const uint8_t *data() const { return bytes.data(); }

  /// Element `index` (row-major) as a double (exact but for i64 values past
  /// 2^53).
  double get(int64_t index) const;
  /// Stores `value` into element `index`, rounded to nearest even for the
  /// floating-point kinds; for the integer kinds truncated toward zero,
  /// saturated at the kind's range, and NaN stored as 0.
  void set(int64_t index, double value);

  /// Returns a copy with every element converted to `kind`.
  HostTensor convertedTo(ElementKind kind) const;

  /// Returns a printable type such as `tensor<1000x2048xbf16>`.
  std::string getTypeString() const;

private:
  ElementKind kind = ElementKind::F32;
  llvm::SmallVector<int64_t> shape;
  std::vector<uint8_t> bytes;
};

/// Returns the relative error ||value - reference||₂ / ||reference||₂ (the
/// absolute norm of the difference when the reference is all zeros), in
/// double. The shapes must match.
double relativeError(const HostTensor &value, const HostTensor &reference);

/// Returns the number of NaN or infinite elements of `tensor`.
int64_t countNonFinite(const HostTensor &tensor);

} // namespace mlir::coda

#endif // CODA_RUNNER_HOSTTENSOR_H
