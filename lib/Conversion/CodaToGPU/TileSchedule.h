//===- TileSchedule.h - a GEMM CTA's walk over its units --------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Which units of a GEMM kernel's output a persistent CTA computes, in which
// order. A unit is a whole output tile (plan.tileM() rows by 128 columns)
// or, in a split kernel (plan.splits > 1), one split of a tile's k-tiles:
// [s · k, (s + 1) · k) for k = ceil(k-tiles / splits). A weight gradient
// splits every tile; another GEMM only its last row tile, whose units
// follow the whole tiles. Each launch chooses its splits (a power of two up
// to plan.splits) from its row count and grid.
//
// The CTAs take the units in rounds of gridDim.x, blockIdx.x on even rounds
// and gridDim.x - 1 - blockIdx.x on odd ones (a snake, which gives the last
// round's units to the CTAs that took the previous round's last, the cheap
// tiles of rows past M); the whole tiles first, in a grouped order where
// plan.groupRows row tiles sweep the column tiles together so that concurrent
// CTAs share A row blocks and weight boxes in L2, then the split units
// split-major (every split tile's split 0 first).
//
// A kernel of wide tiles (GemmKernelPlan::wide) walks 128 x 256 tiles
// (TileShape) and splits nothing.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_TILESCHEDULE_H
#define CODA_LIB_CONVERSION_CODATOGPU_TILESCHEDULE_H

#include "GemmKernelPlan.h"
#include "TileShape.h"
#include "mlir/IR/Builders.h"

namespace mlir::coda {

class TileSchedule {
public:
  /// One unit of a CTA's walk.
  struct Unit {
    /// The tile's first row and output column.
    Value m0, n0;
    /// The unit's split of its tile (none in a kernel that splits nothing).
    Value split;
    /// The unit's k-tiles and its first ring step.
    Value kTiles, first;
    /// The kernel's tile shape.
    TileShape shape;
  };

  /// Emits at the builder's insertion point the launch's splits and the
  /// CTA's unit count, from the output rows the tiles cover (`rows`) and
  /// the k-tiles of a whole tile (`allKTiles`), both indices. Later calls
  /// emit at the builder's insertion point then.
  TileSchedule(OpBuilder &builder, Location loc, const GemmKernelPlan &plan,
               Value rows, Value allKTiles);

  /// The units the CTA takes.
  Value getCtaUnits() const { return ctaUnits; }
  /// The splits this launch uses (1 in a kernel that splits nothing).
  Value getSplitCount() const { return splitCount; }

  /// The CTA's unit number `ordinal`. Its first ring step counts the ring
  /// steps of the CTA's earlier units: their k-tiles, then their epilogue
  /// inputs' steps (plan.epilogueSteps()).
  Unit unitAt(Value ordinal);
  /// The kernel's tile shape, emitted at the builder's insertion point.
  TileShape shapeOf();
  /// The first of `unit`'s k-tiles.
  Value firstKTile(const Unit &unit);
  /// The m64 slabs of `unit`'s tile that hold rows, both consumers': all
  /// of them but in a tile whose rows end inside it.
  Value slabsWithRows(const Unit &unit);
  /// Whether `unit` is one split of its tile: every unit of a weight
  /// gradient; of another GEMM, those of the row tiles past the whole ones.
  /// Derived where it is used, so that it is not live across the mainloop.
  Value isSplitUnit(const Unit &unit);
  /// The number of a split unit's tile among the split tiles, where its
  /// splits meet: its row tile past the whole ones times the column tiles,
  /// plus its column tile.
  Value splitTileOf(const Unit &unit);

private:
  Value index(int64_t value);
  /// ceil(value / divisor) of two indices.
  Value ceilDiv(Value value, Value divisor);
  /// The CTA's position in round `round` of the snake.
  Value positionInRound(Value round);
  /// How many of the first `units` linear units the CTA takes: one in each
  /// whole round, and one in the last round where its position there is
  /// among the units left.
  Value unitsOfCta(Value units);
  /// The splits, a power of two up to plan.splits, that leave the busiest
  /// CTA the fewest k-tiles, a split unit costing ceil(k-tiles / splits) +
  /// kSplitOverheadKTiles (none unsplit). Few rows leave a weight gradient
  /// unsplit, and row counts that fill their last round leave the last row
  /// tile of another GEMM unsplit.
  Value chooseSplits();
  /// The split count of a weight gradient: every tile split alike,
  /// ceil(units / gridDim.x) rounds.
  Value chooseRowSplits();
  /// The split count of another GEMM: the whole tiles' rounds, then the
  /// last row tile's split units after the last round of whole tiles.
  Value chooseLastRowSplits();
  /// Of 1 (costing `unsplitCost`) and each power of two up to plan.splits
  /// (costing `costOf(splits)`), the splits of the least cost, the first on
  /// ties.
  Value cheapestSplits(Value unsplitCost, function_ref<Value(int64_t)> costOf);
  /// The first row and output column of linear tile `linear` of the
  /// `regionRows` row tiles from row tile `firstRowTile` on, in the grouped
  /// order.
  std::pair<Value, Value> tileOrigin(Value linear, Value firstRowTile,
                                     Value regionRows);
  /// The first ring step of the CTA's unit number `ordinal`.
  Value firstStep(Value ordinal);

  OpBuilder &b;
  Location loc;
  const GemmKernelPlan &plan;
  /// The output rows the tiles cover, the k-tiles of a whole tile, the row
  /// tiles and tiles of the output, the CTA and the CTAs.
  Value rows, allKTiles, rowTiles, tiles, cta, ctas;
  /// The splits this launch uses and the k-tiles of a split unit,
  /// ceil(allKTiles / splitCount).
  Value splitCount, splitKTiles;
  /// The row tiles before the split ones (all of them unsplit, none for a
  /// weight gradient), their tiles, and the tiles that are split.
  Value wholeRowTiles, wholeTiles, splitTileCount;
  Value ctaUnits;
  /// Of a split GEMM that is not a weight gradient, the whole tiles the CTA
  /// takes.
  Value ctaWholeTiles;
};

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_TILESCHEDULE_H
