//===- LoweringUtils.h - builders shared by coda-to-linalg ------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Private to the conversion: the few shapes of linalg code every coda op
// lowers to, so each pattern states only its scalar math.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOLINALG_LOWERINGUTILS_H
#define CODA_LIB_CONVERSION_CODATOLINALG_LOWERINGUTILS_H

#include "coda/Conversion/CodaToLinalg.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"

namespace mlir::coda {

/// Builds the scalar body of an elementwise op from compute-type values.
using ScalarBody =
    function_ref<Value(OpBuilder &builder, Location loc, ValueRange args)>;

/// Returns `value` converted between floating-point types (extf or truncf),
/// or as it is when the types match or are not both floats.
Value convertScalar(OpBuilder &builder, Location loc, Value value, Type type);

/// Returns an f32 or f64 constant of `type`.
Value createFloat(OpBuilder &builder, Location loc, Type type, double value);

/// Returns a `tensor.empty` of `type`; a dynamic first dimension takes the
/// row count of `rowSource`.
Value createEmpty(OpBuilder &builder, Location loc, RankedTensorType type,
                  Value rowSource);

/// Returns a tensor of `type` filled with `value` (in the element type).
Value createFilled(OpBuilder &builder, Location loc, RankedTensorType type,
                   Value rowSource, double value);

/// The indexing map of an operand of a 2-D elementwise op with the result
/// shape `[M, N]`: `(d0, d1)` for `[M, N]`, `(d1)` for `[N]`, `(d0, 0)` for
/// `[M, 1]` when `N != 1`.
AffineMap getBroadcastMap(MLIRContext *context, RankedTensorType operand,
                          RankedTensorType result);

/// Builds an elementwise `linalg.generic` of `resultType` over `inputs`
/// read through `maps`. `body` receives the inputs converted to
/// `computeType` and returns a compute-type value, rounded once to the
/// result element type.
Value buildElementwise(OpBuilder &builder, Location loc,
                       RankedTensorType resultType, ValueRange inputs,
                       ArrayRef<AffineMap> maps, Type computeType,
                       Value rowSource, ScalarBody body);

/// Builds a 2-D elementwise op whose operands broadcast as `coda.add` does.
Value buildBroadcastElementwise(OpBuilder &builder, Location loc,
                                RankedTensorType resultType, ValueRange inputs,
                                Type computeType, ScalarBody body);

/// The combining function of a reduction.
enum class ReductionKind { Sum, Max };

/// Reduces `[M, N]` `x` along its rows into `[M]` values of `computeType`;
/// `map` turns each element (and the row's entries of `rowInputs`, `[M]`
/// tensors) into the value reduced.
Value buildRowReduction(OpBuilder &builder, Location loc, Value x,
                        ValueRange rowInputs, Type computeType,
                        ReductionKind kind, ScalarBody map);

/// Returns `value` as `type` through a `tensor.cast` when only static sizes
/// differ.
Value castToType(OpBuilder &builder, Location loc, Value value, Type type);

/// Returns `values`, `[M]`, as an `[M, 1]` tensor.
Value expandToColumn(OpBuilder &builder, Location loc, Value values);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOLINALG_LOWERINGUTILS_H
