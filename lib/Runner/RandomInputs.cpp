//===- RandomInputs.cpp - seeded inputs for coda-run ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Everything is built on the raw 64-bit output of std::mt19937_64, which the
// C++ standard specifies exactly; the library's distributions are not, so
// the uniform, normal and integer draws are done here. The one dependence
// left is on the C library's log, sin and cos, which good implementations
// get within an ulp of a double; such a difference almost never survives the
// rounding to the element type.
//
//===----------------------------------------------------------------------===//

#include "coda/Runner/RandomInputs.h"

#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"

#include <cassert>
#include <cmath>
#include <optional>
#include <random>

using namespace mlir;
using namespace mlir::coda;

namespace {
/// The draws of coda-run's inputs, all from one std::mt19937_64.
class InputGenerator {
public:
  explicit InputGenerator(uint64_t seed) : engine(seed) {}

  /// Returns a uniform double in (0, 1], a multiple of 2^-53.
  double uniformPositive() { return double((engine() >> 11) + 1) * 0x1.0p-53; }

  /// Returns a standard normal value. Box–Muller makes two at a time; the
  /// second is kept for the next call.
  double normal() {
    if (spare) {
      double value = *spare;
      spare.reset();
      return value;
    }
    // u1 is never zero, so the logarithm is finite.
    double radius = std::sqrt(-2.0 * std::log(uniformPositive()));
    double angle = 2.0 * llvm::numbers::pi * uniformPositive();
    spare = radius * std::sin(angle);
    return radius * std::cos(angle);
  }

  /// Returns a uniform integer in [0, bound), without modulo bias.
  uint64_t uniformBelow(uint64_t bound) {
    assert(bound > 0 && "empty range");
    // 2^64 mod bound; rejecting the draws below it leaves a whole number of
    // copies of [0, bound).
    uint64_t threshold = (0 - bound) % bound;
    while (true) {
      uint64_t draw = engine();
      if (draw >= threshold)
        return draw % bound;
    }
  }

private:
  std::mt19937_64 engine;
  std::optional<double> spare;
};
} // namespace

/// Fills `tensor` with draws for `spec`, in row-major order.
static void fillInput(HostTensor &tensor, const InputSpec &spec,
                      InputGenerator &generator) {
  int64_t numElements = tensor.getNumElements();
  switch (spec.role) {
  case InputRole::Activation:
    for (int64_t i = 0; i < numElements; ++i)
      tensor.set(i, generator.normal());
    return;
  case InputRole::Weight:
    for (int64_t i = 0; i < numElements; ++i)
      tensor.set(i, 0.02 * generator.normal());
    return;
  case InputRole::Vector:
    for (int64_t i = 0; i < numElements; ++i) {
      // A statement of its own, so that the product is not fused into the
      // sum on machines with FMA.
      double deviation = 0.1 * generator.normal();
      tensor.set(i, 1.0 + deviation);
    }
    return;
  case InputRole::Targets:
    assert(spec.classes > 0 && "targets need a positive class count");
    for (int64_t i = 0; i < numElements; ++i)
      tensor.set(i, double(generator.uniformBelow(uint64_t(spec.classes))));
    return;
  }
  llvm_unreachable("unknown input role");
}

std::vector<HostTensor>
mlir::coda::generateInputs(llvm::ArrayRef<InputSpec> specs, uint64_t seed) {
  InputGenerator generator(seed);
  std::vector<HostTensor> inputs;
  inputs.reserve(specs.size());
  for (const InputSpec &spec : specs) {
    HostTensor tensor(spec.kind, spec.shape);
    fillInput(tensor, spec, generator);
    inputs.push_back(std::move(tensor));
  }
  return inputs;
}
