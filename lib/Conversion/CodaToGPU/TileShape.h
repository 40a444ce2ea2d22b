//===- TileShape.h - a kernel's tile shape and its slabs --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A cooperative tile is two consumers' m64 slabs. Its usual shape is 256
// rows by 128 columns: each consumer's two slabs one above the other, both
// at the tile's columns, reading one B box. A kernel of wide tiles
// (GemmKernelPlan::wide) takes them as 128 rows by 256 columns: each
// consumer's two slabs side by side, the same 64 rows at the tile's first
// and second 128 columns, each slab reading its own B box. Both shapes hold
// the same accumulators, load the same bytes per k-tile and issue the same
// wgmma.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_TILESHAPE_H
#define CODA_LIB_CONVERSION_CODATOGPU_TILESHAPE_H

#include "GemmKernelPlan.h"

namespace mlir::coda {

/// A kernel's tiles over the output, and where they put each consumer's
/// slabs, as index constants for the positions they fold into.
struct TileShape {
  /// A tile's rows and columns, and the output's column tiles.
  Value tileRows, tileColumns, columnTiles;
  /// A consumer's rows in a tile: plan.slabs · 64, or 64 in wide tiles.
  Value consumerRows;
  /// From a consumer's slab to its next: 64 rows down and no column, or in
  /// wide tiles no row and 128 columns right.
  Value slabRowStep, slabColumnStep;

  /// The shape of `plan`'s tiles.
  static TileShape get(OpBuilder &b, Location loc, const GemmKernelPlan &plan);

  /// Row `offset` of slab `slab` of a consumer whose first row is `first`.
  Value slabRow(OpBuilder &b, Location loc, Value first, int64_t slab,
                int64_t offset = 0) const;
  /// The first output column of slab `slab` in a tile at column `n0`.
  Value slabColumn(OpBuilder &b, Location loc, Value n0, int64_t slab) const;
};

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_TILESHAPE_H
