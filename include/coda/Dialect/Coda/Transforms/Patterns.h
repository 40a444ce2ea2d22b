//===- Patterns.h - coda rewrite pattern sets -------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_DIALECT_CODA_TRANSFORMS_PATTERNS_H
#define CODA_DIALECT_CODA_TRANSFORMS_PATTERNS_H

#include "mlir/IR/PatternMatch.h"

#include <string>

namespace mlir::coda {

/// Merges linears that share an input into one multi-weight `coda.gemm`
/// (coda-merge-parallel-linears). `maxWeights` = 0 sets no limit.
void populateMergeParallelLinearsPatterns(RewritePatternSet &patterns,
                                          unsigned maxWeights);

/// Merges into a GEMM the plain product of another GEMM that its epilogue
/// adds to the accumulator (coda-sum-products).
void populateSumProductsPatterns(RewritePatternSet &patterns);

/// Rewrites norms that feed GEMMs into statistics plus a per-row scale in the
/// consuming GEMMs (coda-reparameterize-norms).
void populateReparameterizeNormsPatterns(RewritePatternSet &patterns,
                                         bool foldGammaIntoWeights);

/// Turns linears into GEMMs and absorbs tile-local consumers into their
/// producing GEMM's epilogue (coda-form-epilogues).
void populateFormEpiloguesPatterns(RewritePatternSet &patterns,
                                   unsigned maxEpilogueOps);

/// Computes graph-level tile-local ops whose tiles a later GEMM's epilogue
/// reads as results of that GEMM, into epilogues of fewer than
/// `maxEpilogueOps` ops (coda-recompute-in-epilogues).
void populateRecomputeInEpiloguesPatterns(RewritePatternSet &patterns,
                                          unsigned maxEpilogueOps);

/// Inlines GEMM epilogues back into graph-level ops (coda-inline-epilogues).
void populateInlineEpiloguesPatterns(RewritePatternSet &patterns);

/// Returns why `op` stays a kernel of its own after the fusion pipeline, in
/// words for the user; empty when `op` is a GEMM or otherwise not a
/// fusion candidate.
std::string explainUnfused(Operation *op, unsigned maxEpilogueOps);

} // namespace mlir::coda

#endif // CODA_DIALECT_CODA_TRANSFORMS_PATTERNS_H
