//===- GemmUtils.h - building and growing coda.gemm ops ---------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Private to the transforms library: the few ways the rewrites create a GEMM
// or extend one's epilogue, so every pattern keeps gemm_c2 and gemm_c3.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_DIALECT_CODA_TRANSFORMS_GEMMUTILS_H
#define CODA_LIB_DIALECT_CODA_TRANSFORMS_GEMMUTILS_H

#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::coda {

/// Builds the values a new epilogue yields from the accumulator and the
/// block arguments of the inputs; the builder's insertion point is in the
/// epilogue.
using EpilogueBodyBuilder = function_ref<SmallVector<Value>(
    OpBuilder &builder, Location loc, Value acc, ValueRange inputs)>;

/// Creates `coda.gemm a, [weights] inputs(inputs)` with `resultTypes` and the
/// epilogue that `body` builds; the weights are `[N, K]` ("nk") or `[K, N]`
/// ("kn"), `a` is `[M, K]` ("mk") or `[K, M]` ("km").
GemmOp createGemm(OpBuilder &builder, Location loc, TypeRange resultTypes,
                  Value a, ValueRange weights, ValueRange inputs,
                  EpilogueBodyBuilder body, StringRef bLayout = "nk",
                  StringRef aLayout = "mk");

/// Builds values that extend an epilogue, from the values it yields now and
/// the block arguments of the newly added inputs.
using EpilogueExtensionBuilder =
    function_ref<SmallVector<Value>(OpBuilder &builder, Location loc,
                                    ValueRange yielded, ValueRange newInputs)>;

/// Replaces `gemm` by a GEMM with `newInputs` appended to its inputs (inputs
/// it already has are reused, not repeated) and the values `extend` builds
/// appended to its results, with types `newResultTypes`. The old results are
/// replaced by the leading results of the new GEMM, which is returned.
GemmOp extendGemm(RewriterBase &rewriter, GemmOp gemm, ValueRange newInputs,
                  TypeRange newResultTypes, EpilogueExtensionBuilder extend);

/// Replaces `op`, a tile-local op with one result, by one more result of
/// `gemm` that its epilogue computes: `op`'s operands that are results of
/// `gemm` are read as the values the epilogue yields for them, the others
/// (defined before `gemm`) as inputs, appended when `gemm` lacks them.
/// Returns the new GEMM.
GemmOp computeInEpilogue(RewriterBase &rewriter, GemmOp gemm, Operation *op);

/// Replaces `linear` by the equivalent `coda.gemm`: one weight, the bias (if
/// any) added in the epilogue.
GemmOp convertLinearToGemm(RewriterBase &rewriter, LinearOp linear);

/// Replaces `matmul` by the equivalent `coda.gemm`: its `b : [K, N]` as a
/// weight read MN-major (`b_layout = "kn"`), the product as the epilogue's
/// value (a dgrad `dy · W`, say).
GemmOp convertMatmulToGemm(RewriterBase &rewriter, MatmulOp matmul);

/// Replaces `product` (`aᵀ b`, a weight gradient) by the equivalent
/// `coda.gemm`: both operands read as stored, `a_layout = "km"` and
/// `b_layout = "kn"`, the reduction over their rows. The operands must share
/// their element type.
GemmOp convertTransposedMatmulToGemm(RewriterBase &rewriter,
                                     TransposedMatmulOp product);

/// Replaces `gemm` by a GEMM that reads the products of `a` and `weights`
/// (as coda.gemm's operands of those names) instead and has
/// `extraInputs` appended to its inputs (inputs it already has are reused);
/// the epilogue and the results stay. Returns the new GEMM.
GemmOp rebuildGemm(RewriterBase &rewriter, GemmOp gemm, ValueRange a,
                   ValueRange weights, ValueRange extraInputs);

/// Returns the epilogue argument of the input `input` of `gemm`.
BlockArgument getInputArgument(GemmOp gemm, Value input);

/// Returns true when `value` is available at `point`: a block argument of a
/// block enclosing it, or the result of an op before it.
bool isDefinedBefore(Value value, Operation *point);

/// Returns `type` with f32 elements, the type a value has in an epilogue.
Type getEpilogueType(Type type);

/// The `[M, ?]` f32 type of per-tile partials of a reduction along the rows
/// of `x` (one column per N-tile, symbolic until kernels are planned).
RankedTensorType getPartialsType(Value x);

/// The `[M, 1]` f32 type of a per-row statistic of `x`.
RankedTensorType getStatisticType(Value x);

/// The RMSNorm scale of each row of `x : [M, D]`, rsqrt(mean(x²) + ε), as
/// partial sums of squares finished by `coda.reduce_partials`: in a GEMM's
/// epilogue when a GEMM makes `x`.
Value buildRMSNormRstd(OpBuilder &builder, Location loc, Value x,
                       FloatAttr epsilon);

/// The coda.reduce_partials of `kind` ("sum", "max" or "lse") that finishes
/// per-tile `partials` into one value per row, of type `type` (`[M, 1]`
/// f32).
Value finishRowPartials(OpBuilder &builder, Location loc, Value partials,
                        StringRef kind, Type type);

/// Returns true when a GEMM computes `x`, directly or through tile-local ops
/// that coda-form-epilogues can move into its epilogue.
bool hasProducingGemm(Value x);

/// Whether `norm` is an RMSNorm of 16-bit elements whose input no GEMM
/// produces (a first-layer norm). coda-reparameterize-norms leaves it, unless
/// gamma is folded into the weights: its h = x · gamma would round the
/// product of two 16-bit tensors to 16 bits, whose low bits are not uniform,
/// so the rounding errors correlate with the values and bias the GEMM's
/// outputs (bench/NOTES.md §31). Its row kernel rounds x · rstd · gamma
/// once, as eager does, for the same traffic.
bool isSixteenBitFirstLayerRMSNorm(Operation *norm);

} // namespace mlir::coda

#endif // CODA_LIB_DIALECT_CODA_TRANSFORMS_GEMMUTILS_H
