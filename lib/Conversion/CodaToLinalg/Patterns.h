//===- Patterns.h - coda-to-linalg pattern families -------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOLINALG_PATTERNS_H
#define CODA_LIB_CONVERSION_CODATOLINALG_PATTERNS_H

#include "LoweringUtils.h"
#include "coda/Conversion/CodaToLinalg.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::coda {

/// A lowering of `Op` that knows the CPU path's types.
template <typename Op>
struct CodaLoweringPattern : public OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;

  /// The type values are computed in (f32, or f64 for the reference).
  Type getComputeType() const {
    return static_cast<const CodaToLinalgTypeConverter *>(
               this->getTypeConverter())
        ->getComputeType(this->getContext());
  }

  /// The converted type of `type`.
  RankedTensorType convert(Type type) const {
    return cast<RankedTensorType>(this->getTypeConverter()->convertType(type));
  }

  /// Returns each `[M]` statistic of `rows` as the `[M, 1]` value of the
  /// matching result's converted type.
  SmallVector<Value> toColumns(OpBuilder &builder, Location loc,
                               ValueRange rows, ValueRange results) const {
    SmallVector<Value> columns;
    for (auto [row, result] : llvm::zip_equal(rows, results))
      columns.push_back(castToType(builder, loc,
                                   expandToColumn(builder, loc, row),
                                   convert(result.getType())));
    return columns;
  }
};

/// Elementwise, pairwise and layout ops, and arith casts of tensors.
void populateElementwiseLoweringPatterns(
    const CodaToLinalgTypeConverter &converter, RewritePatternSet &patterns);

/// Norms, partial reductions and their finishing, cross-entropy.
void populateReductionLoweringPatterns(
    const CodaToLinalgTypeConverter &converter, RewritePatternSet &patterns);

/// Linear, matmul and attention.
void populateGradientLoweringPatterns(
    const CodaToLinalgTypeConverter &converter, RewritePatternSet &patterns);

void populateContractionLoweringPatterns(
    const CodaToLinalgTypeConverter &converter, RewritePatternSet &patterns);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOLINALG_PATTERNS_H
