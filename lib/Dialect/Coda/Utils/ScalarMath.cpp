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

namespace {
/// tanh and sigmoid as the caller's target computes them: math.tanh and
/// 1 / (1 + exp(-x)), or with the target's tanh, that tanh and
/// 0.5 + 0.5 · tanh(x / 2).
struct Hyperbolics {
  const TanhBuilder &targetTanh;

  Value tanh(OpBuilder &b, Location loc, Value x) const {
    return targetTanh ? targetTanh(b, loc, x)
                      : math::TanhOp::create(b, loc, x).getResult();
  }
  Value sigmoid(OpBuilder &b, Location loc, Value x) const {
    if (targetTanh) {
      Value half = constant(b, loc, x.getType(), 0.5);
      Value t = tanh(b, loc, arith::MulFOp::create(b, loc, half, x));
      return arith::AddFOp::create(b, loc, half,
                                   arith::MulFOp::create(b, loc, half, t));
    }
    Value one = constant(b, loc, x.getType(), 1.0);
    Value exp = math::ExpOp::create(b, loc, arith::NegFOp::create(b, loc, x));
    return arith::DivFOp::create(b, loc, one,
                                 arith::AddFOp::create(b, loc, one, exp));
  }
  /// x · sigmoid(x).
  Value silu(OpBuilder &b, Location loc, Value x) const {
    return arith::MulFOp::create(b, loc, x, sigmoid(b, loc, x));
  }
};
} // namespace

/// GELU as torch.nn.functional.gelu: the erf form, or the tanh form.
static Value gelu(OpBuilder &b, Location loc, Value x, bool tanhForm,
                  const Hyperbolics &h) {
  Type type = x.getType();
  Value inner;
  if (tanhForm) {
    Value cube =
        arith::MulFOp::create(b, loc, x, arith::MulFOp::create(b, loc, x, x));
    Value poly = arith::AddFOp::create(
        b, loc, x,
        arith::MulFOp::create(b, loc, constant(b, loc, type, 0.044715), cube));
    inner = h.tanh(
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

Value mlir::coda::buildActivationDerivative(OpBuilder &b, Location loc,
                                            StringRef activation, Value x,
                                            const TanhBuilder &targetTanh) {
  Hyperbolics h{targetTanh};
  Type type = x.getType();
  Value one = constant(b, loc, type, 1.0);
  Value half = constant(b, loc, type, 0.5);
  if (activation == "silu") {
    // s + x · s · (1 − s): x · s is SiLU itself, which a SwiGLU of the same
    // x shares, leaving a subtraction and a fused multiply-add.
    Value s = h.sigmoid(b, loc, x);
    Value silu = arith::MulFOp::create(b, loc, x, s);
    return arith::AddFOp::create(
        b, loc, s,
        arith::MulFOp::create(b, loc, silu,
                              arith::SubFOp::create(b, loc, one, s)));
  }
  if (activation == "relu") {
    Value positive = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, x,
                                           constant(b, loc, type, 0.0));
    return arith::SelectOp::create(b, loc, positive, one,
                                   constant(b, loc, type, 0.0));
  }
  if (activation == "sigmoid") {
    Value s = h.sigmoid(b, loc, x);
    return arith::MulFOp::create(b, loc, s,
                                 arith::SubFOp::create(b, loc, one, s));
  }
  if (activation == "tanh") {
    Value t = h.tanh(b, loc, x);
    return arith::SubFOp::create(b, loc, one,
                                 arith::MulFOp::create(b, loc, t, t));
  }
  if (activation == "gelu") {
    // Φ(x) + x · φ(x).
    Value cdf = arith::MulFOp::create(
        b, loc, half,
        arith::AddFOp::create(
            b, loc, one,
            math::ErfOp::create(
                b, loc,
                arith::MulFOp::create(
                    b, loc, x, constant(b, loc, type, 1.0 / std::sqrt(2.0))))));
    Value square = arith::MulFOp::create(b, loc, x, x);
    Value pdf = arith::MulFOp::create(
        b, loc, constant(b, loc, type, 1.0 / std::sqrt(2.0 * M_PI)),
        math::ExpOp::create(b, loc,
                            arith::MulFOp::create(
                                b, loc, square, constant(b, loc, type, -0.5))));
    return arith::AddFOp::create(b, loc, cdf,
                                 arith::MulFOp::create(b, loc, x, pdf));
  }
  // gelu_tanh: with u = k (x + c x³) and t = tanh(u),
  // 0.5 (1 + t) + 0.5 x (1 − t²) k (1 + 3 c x²).
  Value k = constant(b, loc, type, std::sqrt(2.0 / M_PI));
  Value c = constant(b, loc, type, 0.044715);
  Value square = arith::MulFOp::create(b, loc, x, x);
  Value cube = arith::MulFOp::create(b, loc, square, x);
  Value t = h.tanh(b, loc,
                   arith::MulFOp::create(
                       b, loc, k,
                       arith::AddFOp::create(
                           b, loc, x, arith::MulFOp::create(b, loc, c, cube))));
  Value inner = arith::MulFOp::create(
      b, loc, k,
      arith::AddFOp::create(
          b, loc, one,
          arith::MulFOp::create(b, loc, constant(b, loc, type, 3.0 * 0.044715),
                                square)));
  Value slope = arith::MulFOp::create(
      b, loc, arith::MulFOp::create(b, loc, half, x),
      arith::MulFOp::create(
          b, loc,
          arith::SubFOp::create(b, loc, one,
                                arith::MulFOp::create(b, loc, t, t)),
          inner));
  return arith::AddFOp::create(
      b, loc,
      arith::MulFOp::create(b, loc, half,
                            arith::AddFOp::create(b, loc, one, t)),
      slope);
}

bool mlir::coda::hasScalarForm(Operation *op) {
  return isa<AddOp, AddOuterOp, MulOp, MulOuterOp, ScaleOp, SiLUOp, ReLUOp,
             SigmoidOp, TanhOp, GELUOp, SwiGLUOp, ActivationGradOp>(op);
}

Value mlir::coda::buildElementwiseScalar(OpBuilder &b, Location loc,
                                         Operation *op, ValueRange args,
                                         const TanhBuilder &targetTanh) {
  Hyperbolics h{targetTanh};
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
      .Case([&](MulOuterOp) {
        return arith::MulFOp::create(
            b, loc, arith::MulFOp::create(b, loc, args[0], args[1]), args[2]);
      })
      .Case([&](ScaleOp scale) {
        Value factor = constant(b, loc, args[0].getType(),
                                scale.getFactor().convertToDouble());
        return arith::MulFOp::create(b, loc, factor, args[0]);
      })
      .Case([&](SiLUOp) { return h.silu(b, loc, args[0]); })
      .Case([&](ReLUOp) {
        return arith::MaximumFOp::create(
            b, loc, args[0], constant(b, loc, args[0].getType(), 0.0));
      })
      .Case([&](SigmoidOp) { return h.sigmoid(b, loc, args[0]); })
      .Case([&](TanhOp) { return h.tanh(b, loc, args[0]); })
      .Case([&](GELUOp gelu_) {
        return gelu(b, loc, args[0], gelu_.getApproximate() == "tanh", h);
      })
      .Case([&](SwiGLUOp) {
        return arith::MulFOp::create(b, loc, h.silu(b, loc, args[0]), args[1]);
      })
      .Case([&](ActivationGradOp grad) {
        return arith::MulFOp::create(
            b, loc, args[1],
            buildActivationDerivative(b, loc, grad.getActivation(), args[0],
                                      targetTanh));
      });
}
