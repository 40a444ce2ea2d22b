//===- CodaToLinalg.h - coda to linalg patterns -----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_CONVERSION_CODATOLINALG_H
#define CODA_CONVERSION_CODATOLINALG_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::coda {

/// Converts tensor types for the CPU reference path: unchanged, or with
/// every floating-point element type turned into f64.
class CodaToLinalgTypeConverter : public TypeConverter {
public:
  explicit CodaToLinalgTypeConverter(bool computeInF64);

  /// The type values are computed in: f32, or f64 for the reference.
  Type getComputeType(MLIRContext *context) const;

private:
  bool computeInF64;
};

/// Adds the patterns that lower every coda op to linalg on tensors.
void populateCodaToLinalgPatterns(const CodaToLinalgTypeConverter &converter,
                                  RewritePatternSet &patterns);

} // namespace mlir::coda

#endif // CODA_CONVERSION_CODATOLINALG_H
