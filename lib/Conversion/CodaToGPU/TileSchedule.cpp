//===- TileSchedule.cpp - a GEMM CTA's walk over its units ----------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TileSchedule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace mlir::coda;

TileSchedule::TileSchedule(OpBuilder &builder, Location loc,
                           const GemmKernelPlan &plan, Value rows,
                           Value allKTiles)
    : b(builder), loc(loc), plan(plan), rows(rows), allKTiles(allKTiles) {
  // The CTA's units: ceil(M / tile rows) x column tiles, the split ones
  // times the splits, every gridDim.x-th.
  rowTiles = arith::DivUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, rows, index(plan.tileRows() - 1)),
      index(plan.tileRows()));
  tiles = arith::MulIOp::create(b, loc, rowTiles, index(plan.columnTiles()));
  cta = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  ctas = gpu::GridDimOp::create(b, loc, gpu::Dimension::x);
  splitCount = plan.splits > 1 ? chooseSplits() : index(1);
  splitKTiles = ceilDiv(allKTiles, splitCount);
  if (plan.reducesRows) {
    wholeRowTiles = index(0);
  } else if (plan.splits == 1) {
    wholeRowTiles = rowTiles;
  } else {
    // The last row tile is split only when the launch splits at all (so
    // only where there is a row tile).
    Value split = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                        splitCount, index(1));
    wholeRowTiles = arith::SelectOp::create(
        b, loc, split, arith::SubIOp::create(b, loc, rowTiles, index(1)),
        rowTiles);
  }
  wholeTiles =
      arith::MulIOp::create(b, loc, wholeRowTiles, index(plan.columnTiles()));
  splitTileCount = arith::SubIOp::create(b, loc, tiles, wholeTiles);
  ctaUnits = unitsOfCta(arith::AddIOp::create(
      b, loc, wholeTiles,
      arith::MulIOp::create(b, loc, splitTileCount, splitCount)));
  // A split kernel's CTA takes its whole tiles before its split units.
  if (plan.splits > 1 && !plan.reducesRows)
    ctaWholeTiles = unitsOfCta(wholeTiles);
}

Value TileSchedule::index(int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

Value TileSchedule::ceilDiv(Value value, Value divisor) {
  return arith::DivUIOp::create(
      b, loc,
      arith::AddIOp::create(b, loc, value,
                            arith::SubIOp::create(b, loc, divisor, index(1))),
      divisor);
}

Value TileSchedule::slabsWithRows(const Unit &unit) {
  return arith::MinUIOp::create(
      b, loc, index(plan.tileRows() / 64),
      ceilDiv(arith::SubIOp::create(b, loc, rows, unit.m0), index(64)));
}

Value TileSchedule::firstKTile(const Unit &unit) {
  return unit.split ? arith::MulIOp::create(b, loc, unit.split, splitKTiles)
                          .getResult()
                    : index(0);
}

Value TileSchedule::isSplitUnit(const Unit &unit) {
  if (plan.reducesRows)
    return arith::ConstantIntOp::create(b, loc, 1, 1);
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::uge, unit.m0,
      arith::MulIOp::create(b, loc, wholeRowTiles, index(plan.tileM())));
}

Value TileSchedule::splitTileOf(const Unit &unit) {
  Value rowTile = arith::SubIOp::create(
      b, loc, arith::DivUIOp::create(b, loc, unit.m0, index(plan.tileM())),
      wholeRowTiles);
  return arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, rowTile, index(plan.nTiles())),
      arith::DivUIOp::create(b, loc, unit.n0, index(kTileN)));
}

Value TileSchedule::chooseSplits() {
  return plan.reducesRows ? chooseRowSplits() : chooseLastRowSplits();
}

Value TileSchedule::cheapestSplits(Value unsplitCost,
                                   function_ref<Value(int64_t)> costOf) {
  Value best = index(1);
  Value bestCost = unsplitCost;
  for (int64_t splits = 2; splits <= plan.splits; splits *= 2) {
    Value cost = costOf(splits);
    Value cheaper = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          cost, bestCost);
    best = arith::SelectOp::create(b, loc, cheaper, index(splits), best);
    bestCost = arith::SelectOp::create(b, loc, cheaper, cost, bestCost);
  }
  return best;
}

Value TileSchedule::chooseRowSplits() {
  return cheapestSplits(
      arith::MulIOp::create(b, loc, ceilDiv(tiles, ctas), allKTiles),
      [&](int64_t splits) -> Value {
        Value rounds =
            ceilDiv(arith::MulIOp::create(b, loc, tiles, index(splits)), ctas);
        return arith::MulIOp::create(
            b, loc, rounds,
            arith::AddIOp::create(b, loc, ceilDiv(allKTiles, index(splits)),
                                  index(kSplitOverheadKTiles)));
      });
}

Value TileSchedule::chooseLastRowSplits() {
  auto max = [&](Value x, Value y) {
    return arith::MaxUIOp::create(b, loc, x, y);
  };
  auto mul = [&](Value x, Value y) {
    return arith::MulIOp::create(b, loc, x, y);
  };
  auto add = [&](Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y);
  };
  // Past it, a subtraction that would wrap is zero.
  auto sub = [&](Value x, Value y) {
    return arith::SubIOp::create(b, loc, max(x, y), y);
  };
  Value zero = index(0);
  // The whole tiles fill `rounds` rounds and `rest` CTAs of one more,
  // which leaves `idle` CTAs of it to split units.
  Value whole = mul(sub(rowTiles, index(1)), index(plan.nTiles()));
  Value rounds = arith::DivUIOp::create(b, loc, whole, ctas);
  Value rest = arith::RemUIOp::create(b, loc, whole, ctas);
  Value partial =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rest, zero);
  Value idle = arith::SelectOp::create(b, loc, partial, sub(ctas, rest), zero);
  Value best = cheapestSplits(
      mul(ceilDiv(tiles, ctas), allKTiles), [&](int64_t splits) -> Value {
        Value unitCost =
            add(ceilDiv(allKTiles, index(splits)), index(kSplitOverheadKTiles));
        // The split units past that round. The snake gives the next round's
        // first units to the CTAs that took split units in it.
        Value later = sub(index(plan.nTiles() * splits), idle);
        Value onSplitCtas = mul(unitCost, add(index(1), ceilDiv(later, ctas)));
        Value onWholeCtas =
            add(allKTiles, mul(unitCost, ceilDiv(sub(later, idle), ctas)));
        Value last = arith::SelectOp::create(
            b, loc, partial, max(onSplitCtas, onWholeCtas),
            mul(unitCost, ceilDiv(index(plan.nTiles() * splits), ctas)));
        return add(mul(rounds, allKTiles), last);
      });
  // Without a row tile nothing is split.
  Value any =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rowTiles, zero);
  return arith::SelectOp::create(b, loc, any, best, index(1));
}

Value TileSchedule::unitsOfCta(Value units) {
  Value rounds = arith::DivUIOp::create(b, loc, units, ctas);
  Value inLastRound = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ult, positionInRound(rounds),
      arith::RemUIOp::create(b, loc, units, ctas));
  return arith::AddIOp::create(
      b, loc, rounds,
      arith::SelectOp::create(b, loc, inLastRound, index(1), index(0)));
}

Value TileSchedule::positionInRound(Value round) {
  Value odd = arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne,
      arith::AndIOp::create(b, loc, round, index(1)), index(0));
  Value reversed = arith::SubIOp::create(
      b, loc, arith::SubIOp::create(b, loc, ctas, index(1)), cta);
  return arith::SelectOp::create(b, loc, odd, reversed, cta);
}

TileSchedule::Unit TileSchedule::unitAt(Value ordinal) {
  Unit unit;
  Value linear =
      arith::AddIOp::create(b, loc, positionInRound(ordinal),
                            arith::MulIOp::create(b, loc, ordinal, ctas));
  unit.first = firstStep(ordinal);
  unit.shape = shapeOf();
  if (plan.splits == 1) {
    std::tie(unit.m0, unit.n0) = tileOrigin(linear, index(0), rowTiles);
    unit.kTiles = allKTiles;
    return unit;
  }
  // A split unit's place past the whole tiles (0 for a whole tile). Both
  // kinds' tiles are computed and one is selected; divisors that only the
  // other kind's can make zero are at least 1.
  auto atLeastOne = [&](Value value) {
    return arith::MaxUIOp::create(b, loc, value, index(1));
  };
  Value isSplit = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::uge,
                                        linear, wholeTiles);
  Value past = arith::SelectOp::create(
      b, loc, isSplit, arith::SubIOp::create(b, loc, linear, wholeTiles),
      index(0));
  Value splitTiles = atLeastOne(splitTileCount);
  unit.split = arith::DivUIOp::create(b, loc, past, splitTiles);
  std::tie(unit.m0, unit.n0) = tileOrigin(
      arith::RemUIOp::create(b, loc, past, splitTiles), wholeRowTiles,
      atLeastOne(arith::SubIOp::create(b, loc, rowTiles, wholeRowTiles)));
  unit.kTiles = splitKTiles;
  if (plan.reducesRows)
    return unit;
  auto [wholeM0, wholeN0] =
      tileOrigin(linear, index(0), atLeastOne(wholeRowTiles));
  unit.m0 = arith::SelectOp::create(b, loc, isSplit, unit.m0, wholeM0);
  unit.n0 = arith::SelectOp::create(b, loc, isSplit, unit.n0, wholeN0);
  unit.kTiles =
      arith::SelectOp::create(b, loc, isSplit, splitKTiles, allKTiles);
  return unit;
}

Value TileSchedule::firstStep(Value ordinal) {
  Value inputSteps = index(plan.epilogueSteps());
  Value wholeSteps = arith::AddIOp::create(b, loc, allKTiles, inputSteps);
  Value splitSteps = arith::AddIOp::create(b, loc, splitKTiles, inputSteps);
  if (plan.splits == 1)
    return arith::MulIOp::create(b, loc, ordinal, wholeSteps);
  if (plan.reducesRows)
    return arith::MulIOp::create(b, loc, ordinal, splitSteps);
  // The CTA's whole tiles come before its split units.
  Value whole = arith::MinUIOp::create(b, loc, ordinal, ctaWholeTiles);
  return arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, whole, wholeSteps),
      arith::MulIOp::create(
          b, loc, arith::SubIOp::create(b, loc, ordinal, whole), splitSteps));
}

TileShape TileSchedule::shapeOf() { return TileShape::get(b, loc, plan); }

std::pair<Value, Value>
TileSchedule::tileOrigin(Value linear, Value firstRowTile, Value regionRows) {
  Value perGroup = index(plan.groupRows * plan.columnTiles());
  Value group = arith::DivUIOp::create(b, loc, linear, perGroup);
  Value groupStart =
      arith::MulIOp::create(b, loc, group, index(plan.groupRows));
  Value groupRows = arith::MinUIOp::create(
      b, loc, arith::SubIOp::create(b, loc, regionRows, groupStart),
      index(plan.groupRows));
  Value inGroup = arith::RemUIOp::create(b, loc, linear, perGroup);
  Value rowTile = arith::AddIOp::create(
      b, loc, arith::AddIOp::create(b, loc, firstRowTile, groupStart),
      arith::RemUIOp::create(b, loc, inGroup, groupRows));
  Value columnTile = arith::DivUIOp::create(b, loc, inGroup, groupRows);
  return {arith::MulIOp::create(b, loc, rowTile, index(plan.tileRows())),
          arith::MulIOp::create(b, loc, columnTile, index(plan.tileColumns()))};
}
