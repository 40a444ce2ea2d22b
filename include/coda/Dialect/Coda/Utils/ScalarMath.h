//===- ScalarMath.h - elementwise coda ops on one element -------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The scalar meaning of each elementwise coda op, built once and used by
// every lowering that computes ops element by element (the CPU reference
// path's linalg bodies, a GPU epilogue's registers).
//
//===----------------------------------------------------------------------===//

#ifndef CODA_DIALECT_CODA_UTILS_SCALARMATH_H
#define CODA_DIALECT_CODA_UTILS_SCALARMATH_H

#include "mlir/IR/Builders.h"

#include <functional>

namespace mlir::coda {

/// Returns true for the ops `buildElementwiseScalar` computes: add,
/// add_outer, mul, scale, silu, relu, sigmoid, tanh, gelu, swiglu and
/// activation_grad.
bool hasScalarForm(Operation *op);

/// Builds a target's tanh of one element (a GPU's approximate tanh
/// instruction); empty: math.tanh.
using TanhBuilder = std::function<Value(OpBuilder &, Location, Value)>;

/// Builds the value of elementwise op `op` at one element from its operands
/// there, `args`, all of one floating-point type (the compute type). `op`
/// must satisfy `hasScalarForm`. With `targetTanh`, tanh is that builder's
/// and sigmoid (and through it SiLU, SwiGLU and their derivatives) is
/// 0.5 + 0.5 · tanh(x / 2); without, math.tanh and 1 / (1 + exp(-x)).
Value buildElementwiseScalar(OpBuilder &builder, Location loc, Operation *op,
                             ValueRange args,
                             const TanhBuilder &targetTanh = {});

/// Builds f'(x) for the activation `activation` names, as
/// `coda.activation_grad` defines it ("silu", "relu", "sigmoid", "tanh",
/// "gelu", "gelu_tanh"), with tanh and sigmoid as `buildElementwiseScalar`
/// builds them.
Value buildActivationDerivative(OpBuilder &builder, Location loc,
                                llvm::StringRef activation, Value x,
                                const TanhBuilder &targetTanh = {});

} // namespace mlir::coda

#endif // CODA_DIALECT_CODA_UTILS_SCALARMATH_H
