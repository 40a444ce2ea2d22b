//===- ScalarMath.cpp - elementwise coda ops on one element ---------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda/Dialect/Coda/Utils/ScalarMath.h"

#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::coda;

static Value constant(OpBuilder &b, Location loc, Type type, double value) {
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

/// 1 / (1 + exp(-x)).
static Value sigmoid(OpBuilder &b, Location loc, Value x) {
  Value one = constant(b, loc, x.getType(), 1.0);
  Value exp = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
  return arith::DivFOp::create(b, loc, one,
                               arith::AddFOp::create(b, loc, one, exp));
}

/// x · sigmoid(x).
static Value silu(OpBuilder &b, Location loc, Value x) {
  return arith::MulFOp::create(b, loc, x, sigmoid(b, loc, x));
}

/// GELU as torch.nn.functional.gelu: the erf form, or the tanh form.
static Value gelu(OpBuilder &b, Location loc, Value x, bool tanhForm) {
  Type type = x.getType();
  Value inner;
  if (tanhForm) {
    Value cube =
        arith::MulFOp::create(b, loc, x, arith::MulFOp::create(b, loc, x, x));
    Value poly = arith::AddFOp::create(
        b, loc, x,
        arith::MulFOp::create(b, loc, constant(b, loc, type, 0.044715), cube));
    inner = math::TanhOp::create(
        b, loc,
        arith::MulFOp::create(
            b, loc, constant(b, loc, type, std::sqrt(2.0 / M_PI)), poly));
  } else {
    inner = math::ErfOp::create(
        b, loc,
        arith::MulFOp::create(b, loc, x,
                              constant(b, loc, type, 1.0 / std::sqrt(2.0))));
  }
  Value factor =
      arith::AddFOp::create(b, loc, constant(b, loc, type, 1.0), inner);
  return arith::MulFOp::create(
      b, loc, arith::MulFOp::create(b, loc, constant(b, loc, type, 0.5), x),
      factor);
}

bool mlir::coda::hasScalarForm(Operation *op) {
  return isa<AddOp, AddOuterOp, MulOp, ScaleOp, SiLUOp, ReLUOp, SigmoidOp,
             TanhOp, GELUOp, SwiGLUOp>(op);
}

Value mlir::coda::buildElementwiseScalar(OpBuilder &b, Location loc,
                                         Operation *op, ValueRange args) {
  return llvm::TypeSwitch<Operation *, Value>(op)
      .Case([&](AddOp) {
        return arith::AddFOp::create(b, loc, args[0], args[1]);
      })
      .Case([&](AddOuterOp) {
        return arith::AddFOp::create(
            b, loc, args[0], arith::MulFOp::create(b, loc, args[1], args[2]));
      })
      .Case([&](MulOp) {
        return arith::MulFOp::create(b, loc, args[0], args[1]);
      })
      .Case([&](ScaleOp scale) {
        Value factor = constant(b, loc, args[0].getType(),
                                scale.getFactor().convertToDouble());
        return arith::MulFOp::create(b, loc, factor, args[0]);
      })
      .Case([&](SiLUOp) { return silu(b, loc, args[0]); })
      .Case([&](ReLUOp) {
        return arith::MaximumFOp::create(
            b, loc, args[0], constant(b, loc, args[0].getType(), 0.0));
      })
      .Case([&](SigmoidOp) { return sigmoid(b, loc, args[0]); })
      .Case([&](TanhOp) { return math::TanhOp::create(b, loc, args[0]); })
      .Case([&](GELUOp gelu_) {
        return gelu(b, loc, args[0], gelu_.getApproximate() == "tanh");
      })
      .Case([&](SwiGLUOp) {
        return arith::MulFOp::create(b, loc, silu(b, loc, args[0]), args[1]);
      });
}
