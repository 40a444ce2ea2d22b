//===- TileShape.cpp - a launch's tile shape and its slabs ----------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TileShape.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace mlir::coda;

static Value index(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

TileShape TileShape::get(OpBuilder &b, Location loc,
                         const GemmKernelPlan &plan) {
  return {index(b, loc, plan.tileRows()),
          index(b, loc, plan.tileColumns()),
          index(b, loc, plan.columnTiles()),
          index(b, loc, plan.wide ? 64 : plan.slabs * 64),
          index(b, loc, plan.wide ? 0 : 64),
          index(b, loc, plan.wide ? kTileN : 0)};
}

Value TileShape::slabRow(OpBuilder &b, Location loc, Value first, int64_t slab,
                         int64_t offset) const {
  // Folded where the step is a constant: one add of the whole offset.
  Value slabOffset = b.createOrFold<arith::AddIOp>(
      loc, b.createOrFold<arith::MulIOp>(loc, index(b, loc, slab), slabRowStep),
      index(b, loc, offset));
  return b.createOrFold<arith::AddIOp>(loc, first, slabOffset);
}

Value TileShape::slabColumn(OpBuilder &b, Location loc, Value n0,
                            int64_t slab) const {
  return b.createOrFold<arith::AddIOp>(
      loc, n0,
      b.createOrFold<arith::MulIOp>(loc, index(b, loc, slab), slabColumnStep));
}
