//===- RandomInputs.h - seeded inputs for coda-run --------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNNER_RANDOMINPUTS_H
#define CODA_RUNNER_RANDOMINPUTS_H

#include "coda/Runner/HostTensor.h"

namespace mlir::coda {

/// What an argument is, which decides how it is drawn.
enum class InputRole {
  /// A tensor with a dynamic row count: N(0, 1).
  Activation,
  /// A static 2-D tensor: N(0, 0.02²).
  Weight,
  /// A static 1-D floating-point tensor: 1 + N(0, 0.1²).
  Vector,
  /// Integer class indices: uniform over [0, classes).
  Targets,
};

/// One argument to draw: its kind, its shape (rows resolved) and its role.
struct InputSpec {
  ElementKind kind;
  llvm::SmallVector<int64_t> shape;
  InputRole role;
  /// For targets: the number of classes.
  int64_t classes = 0;
};

/// Draws every input from one generator seeded with `seed`, in order, so
/// the same seed and specs give the same tensors on every machine whose C
/// library computes log, sin and cos (used by Box-Muller) to the same bits.
/// Values are drawn in double and rounded once to each input's element type.
std::vector<HostTensor> generateInputs(llvm::ArrayRef<InputSpec> specs,
                                       uint64_t seed);

} // namespace mlir::coda

#endif // CODA_RUNNER_RANDOMINPUTS_H
