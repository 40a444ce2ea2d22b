//===- CodaTraits.h - traits shared by coda ops -----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_DIALECT_CODA_IR_CODATRAITS_H
#define CODA_DIALECT_CODA_IR_CODATRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::coda {
namespace detail {
/// Verifies that every ranked tensor operand and result of `op` has static
/// sizes in every dimension but the first.
LogicalResult verifyStaticFeatureSizes(Operation *op);
} // namespace detail

/// Feature sizes (every dimension after the rows) are static: tiles, strides
/// and weights are sized at compile time; only the token count may vary.
template <typename ConcreteType>
class StaticFeatureSizes
    : public OpTrait::TraitBase<ConcreteType, StaticFeatureSizes> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return detail::verifyStaticFeatureSizes(op);
  }
};
} // namespace mlir::coda

#endif // CODA_DIALECT_CODA_IR_CODATRAITS_H
