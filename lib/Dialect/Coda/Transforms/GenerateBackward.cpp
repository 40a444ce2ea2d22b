//===- GenerateBackward.cpp - the training pair of a function -------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Reverse-mode differentiation of graph-level functions. The forward saves
// the outputs of the ops that are costly to recompute (linears, matmuls, the
// residual sums); the backward recomputes the rest from them, then walks the
// ops in reverse, each contributing the cotangents of its operands.
//
//===----------------------------------------------------------------------===//

#include "GemmUtils.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "coda/Dialect/Coda/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::coda {
#define GEN_PASS_DEF_CODAGENERATEBACKWARDPASS
#include "coda/Dialect/Coda/Transforms/Passes.h.inc"
} // namespace mlir::coda

using namespace mlir;
using namespace mlir::coda;

/// The attribute that counts a training pair's saved values.
static constexpr StringLiteral kSavedAttr = "coda.saved";
/// The result attribute naming the argument a gradient belongs to.
static constexpr StringLiteral kGradientOfAttr = "coda.gradient_of";

/// Ops with a backward rule.
static bool isDifferentiable(Operation *op) {
  return isa<LinearOp, MatmulOp, AddOp, MulOp, ScaleOp, SiLUOp, ReLUOp,
             SigmoidOp, TanhOp, GELUOp, SwiGLUOp, RMSNormOp, LayerNormOp,
             RoPEOp, SliceOp, ConcatOp, CrossEntropyOp>(op);
}

/// Ops whose results the backward recomputes from their operands instead of
/// having the forward save them: elementwise maps, norms and views, which
/// cost one pass over data the backward reads anyway.
static bool isRecomputed(Operation *op) {
  return isa<MulOp, ScaleOp, SiLUOp, ReLUOp, SigmoidOp, TanhOp, GELUOp,
             SwiGLUOp, RMSNormOp, LayerNormOp, RoPEOp, SliceOp, ConcatOp>(op);
}

/// Whether the backward of `loss` takes the softmax from the log-sum-exps
/// the forward saves, recomputing the logits from their linear, instead of
/// the forward saving the logits: when a linear makes them for this loss
/// alone (an LM head, whose logits are the largest tensor of the model).
static bool savesLogSumExp(CrossEntropyOp loss) {
  auto linear = loss.getLogits().getDefiningOp<LinearOp>();
  return linear && loss.getLogits().hasOneUse();
}

/// The forward values the backward rule of `op` reads.
static SmallVector<Value> getBackwardReads(Operation *op) {
  return llvm::TypeSwitch<Operation *, SmallVector<Value>>(op)
      .Case([](LinearOp linear) {
        return SmallVector<Value>{linear.getX(), linear.getW()};
      })
      .Case([](MatmulOp matmul) {
        return SmallVector<Value>{matmul.getA(), matmul.getB()};
      })
      .Case([](MulOp mul) {
        return SmallVector<Value>{mul.getA(), mul.getB()};
      })
      .Case<SiLUOp, ReLUOp, SigmoidOp, TanhOp, GELUOp>(
          [](Operation *activation) {
            return SmallVector<Value>{activation->getOperand(0)};
          })
      .Case([](SwiGLUOp swiglu) {
        return SmallVector<Value>{swiglu.getGate(), swiglu.getUp()};
      })
      .Case([](RMSNormOp norm) {
        return SmallVector<Value>{norm.getX(), norm.getGamma()};
      })
      .Case([](LayerNormOp norm) {
        return SmallVector<Value>{norm.getX(), norm.getGamma()};
      })
      .Case([](RoPEOp rope) {
        return SmallVector<Value>{rope.getCos(), rope.getSin()};
      })
      .Case([](CrossEntropyOp loss) {
        // With saved log-sum-exps the logits are recomputed from what their
        // linear's own rule reads.
        if (savesLogSumExp(loss))
          return SmallVector<Value>{loss.getTargets()};
        return SmallVector<Value>{loss.getLogits(), loss.getTargets()};
      })
      .Default([](Operation *) { return SmallVector<Value>{}; });
}

/// The `coda.activation_grad` name of an activation op.
static StringRef getActivationName(Operation *op) {
  return llvm::TypeSwitch<Operation *, StringRef>(op)
      .Case([](SiLUOp) { return "silu"; })
      .Case([](ReLUOp) { return "relu"; })
      .Case([](SigmoidOp) { return "sigmoid"; })
      .Case([](TanhOp) { return "tanh"; })
      .Case([](GELUOp gelu) {
        return gelu.getApproximate() == "tanh" ? "gelu_tanh" : "gelu";
      });
}

static bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

namespace {
/// A column range of a value whose cotangent arrived through a slice.
struct SlicePiece {
  int64_t offset;
  int64_t size;
  Value cotangent;
  Operation *slice;
};

/// Builds the training pair of one function.
class TrainingPairBuilder {
public:
  TrainingPairBuilder(func::FuncOp original, bool saveActivations)
      : original(original), builder(original.getContext()),
        saveActivations(saveActivations) {}

  LogicalResult build();

private:
  LogicalResult check();
  void collectSaved();
  void markRead(Value value, DenseSet<Value> &visited);
  func::FuncOp buildForward();
  LogicalResult buildBackward();

  Value getPrimal(Value value);
  void accumulate(Value value, Value cotangent);
  FailureOr<Value> takeCotangent(Value value);
  LogicalResult differentiate(Operation *op, Value dy);
  FailureOr<SmallVector<Value>> getRowLinearResults(Value z);
  Value buildOutputDotGrad(RMSNormOp norm);

  /// The values the forward saves: `saved`, the log-sum-exps, then the
  /// norms' scales.
  int64_t getSavedCount() const {
    return saved.size() + savedLogSumExps.size() + savedRstds.size();
  }

  RankedTensorType typeOf(Value value) {
    return cast<RankedTensorType>(value.getType());
  }

  func::FuncOp original;
  OpBuilder builder;
  /// Whether activation and SwiGLU outputs are saved, not recomputed.
  bool saveActivations;
  /// Arguments that are RoPE tables: inputs without gradients.
  DenseSet<Value> positionTables;
  /// The values the forward returns for the backward, in program order.
  llvm::SetVector<Value> saved;
  /// The losses whose logits' log-sum-exps the forward returns after them.
  SmallVector<CrossEntropyOp> savedLogSumExps;
  /// Those log-sum-exps as the backward sees them.
  DenseMap<Operation *, Value> logSumExps;
  /// The RMSNorms whose rows' scales the forward returns after the
  /// log-sum-exps, and those scales as the backward sees them.
  SmallVector<RMSNormOp> savedRstds;
  DenseMap<Operation *, Value> rstds;
  /// Forward values as the backward sees them.
  IRMapping primal;
  DenseMap<Value, Value> cotangents;
  DenseMap<Value, SmallVector<SlicePiece>> slicePieces;
  /// The backward function while it is built.
  func::FuncOp backwardFunc;
};
} // namespace

LogicalResult TrainingPairBuilder::check() {
  for (Operation &op : original.getBody().front().without_terminator()) {
    if (isa<AttentionOp>(op))
      return op.emitError("coda-generate-backward cannot differentiate "
                          "through coda.attention: it is a boundary whose "
                          "backward the caller provides; split @")
             << original.getSymName() << " at the attention";
    if (!isDifferentiable(&op))
      return op.emitError("coda-generate-backward takes graph-level "
                          "functions and has no backward for '")
             << op.getName() << "'";
    if (auto rope = dyn_cast<RoPEOp>(op))
      for (Value table : {rope.getCos(), rope.getSin()}) {
        if (!isa<BlockArgument>(table))
          return rope.emitError("the RoPE tables of a function to "
                                "differentiate must be its arguments, which "
                                "get no gradient");
        positionTables.insert(table);
      }
  }
  for (Value table : positionTables)
    for (Operation *user : table.getUsers())
      if (!isa<RoPEOp>(user) || cast<RoPEOp>(user).getX() == table)
        return user->emitError("argument #")
               << cast<BlockArgument>(table).getArgNumber()
               << " is a RoPE table, which gets no gradient, and is also "
                  "read here";
  for (Type type : original.getResultTypes())
    if (!isFloatTensor(type))
      return original.emitError("@")
             << original.getSymName() << " returns " << type
             << "; coda-generate-backward needs floating-point results";
  return success();
}

void TrainingPairBuilder::markRead(Value value, DenseSet<Value> &visited) {
  if (!visited.insert(value).second || isa<BlockArgument>(value))
    return;
  Operation *def = value.getDefiningOp();
  bool activation =
      isa<SiLUOp, ReLUOp, SigmoidOp, TanhOp, GELUOp, SwiGLUOp>(def);
  if (!isRecomputed(def) || (saveActivations && activation)) {
    saved.insert(value);
    return;
  }
  for (Value operand : def->getOperands())
    markRead(operand, visited);
}

void TrainingPairBuilder::collectSaved() {
  DenseSet<Value> visited;
  for (Operation &op : original.getBody().front().without_terminator())
    for (Value read : getBackwardReads(&op))
      markRead(read, visited);
  // The results whose Σ r · dr give a norm's row statistic, as the forward
  // made them: recomputing them would redo the linear.
  for (auto norm : original.getBody().front().getOps<RMSNormOp>())
    for (Operation *user : norm.getResult().getUsers())
      if (auto linear = dyn_cast<LinearOp>(user)) {
        FailureOr<SmallVector<Value>> results =
            getRowLinearResults(linear.getResult());
        if (succeeded(results))
          saved.insert(results->begin(), results->end());
      }
  // Program order, so the forward's extra results read like the function.
  SmallVector<Value> ordered(saved.begin(), saved.end());
  llvm::sort(ordered, [](Value a, Value b) {
    return a.getDefiningOp()->isBeforeInBlock(b.getDefiningOp());
  });
  saved = llvm::SetVector<Value>(ordered.begin(), ordered.end());
  for (auto loss : original.getBody().front().getOps<CrossEntropyOp>())
    if (savesLogSumExp(loss))
      savedLogSumExps.push_back(loss);
  // A norm whose input a GEMM makes has its scale computed in that GEMM's
  // epilogue anyway (coda-reparameterize-norms), so the forward returns it
  // for the gradient at the cost of 4 bytes a row.
  for (auto norm : original.getBody().front().getOps<RMSNormOp>())
    if (hasProducingGemm(norm.getX()))
      savedRstds.push_back(norm);
}

func::FuncOp TrainingPairBuilder::buildForward() {
  IRMapping mapping;
  auto forward = cast<func::FuncOp>(original->clone(mapping));
  forward.setSymName((original.getSymName() + "_forward").str());
  auto ret = cast<func::ReturnOp>(forward.getBody().front().getTerminator());
  SmallVector<Value> results(ret.getOperands());
  for (Value value : saved)
    results.push_back(mapping.lookup(value));
  builder.setInsertionPoint(ret);
  for (CrossEntropyOp loss : savedLogSumExps)
    results.push_back(LogSumExpOp::create(builder, loss.getLoc(),
                                          getStatisticType(loss.getLogits()),
                                          mapping.lookup(loss.getLogits())));
  for (RMSNormOp norm : savedRstds)
    results.push_back(buildRMSNormRstd(builder, norm.getLoc(),
                                       mapping.lookup(norm.getX()),
                                       norm.getEpsilonAttr()));
  func::ReturnOp::create(builder, ret.getLoc(), results);
  ret.erase();
  forward.setType(FunctionType::get(forward.getContext(),
                                    forward.getArgumentTypes(),
                                    ValueRange(results).getTypes()));
  forward->setAttr(kSavedAttr, builder.getI64IntegerAttr(getSavedCount()));
  return forward;
}

Value TrainingPairBuilder::getPrimal(Value value) {
  if (Value known = primal.lookupOrNull(value))
    return known;
  // Not an argument and not saved: recomputed from its operands.
  Operation *def = value.getDefiningOp();
  for (Value operand : def->getOperands())
    (void)getPrimal(operand);
  // A norm whose row scales the forward saved needs no row statistic:
  // x · rstd · gamma, tile-local, so an epilogue that reads x can make it.
  auto norm = dyn_cast<RMSNormOp>(def);
  if (Value rstd = norm ? rstds.lookup(norm) : Value()) {
    Value recomputed = MulOuterOp::create(
        builder, norm.getLoc(), norm.getType(), primal.lookup(norm.getX()),
        rstd, primal.lookup(norm.getGamma()));
    primal.map(value, recomputed);
    return recomputed;
  }
  builder.clone(*def, primal);
  return primal.lookup(value);
}

void TrainingPairBuilder::accumulate(Value value, Value cotangent) {
  auto [it, inserted] = cotangents.try_emplace(value, cotangent);
  if (!inserted)
    it->second = AddOp::create(builder, cotangent.getLoc(), typeOf(value),
                               it->second, cotangent);
}

FailureOr<Value> TrainingPairBuilder::takeCotangent(Value value) {
  auto pieces = slicePieces.find(value);
  if (pieces != slicePieces.end()) {
    SmallVector<SlicePiece> sorted = pieces->second;
    llvm::sort(sorted, [](const SlicePiece &a, const SlicePiece &b) {
      return a.offset < b.offset;
    });
    int64_t width = typeOf(value).getDimSize(1);
    int64_t covered = 0;
    SmallVector<Value> inputs;
    for (const SlicePiece &piece : sorted) {
      if (piece.offset > covered)
        return piece.slice->emitError("the slices of this value leave "
                                      "columns [")
               << covered << ", " << piece.offset
               << ") without a gradient; coda-generate-backward needs slices "
                  "that tile the "
               << width << " columns exactly";
      if (piece.offset < covered)
        return piece.slice->emitError("the slices of this value overlap in "
                                      "columns [")
               << piece.offset << ", " << covered
               << "); coda-generate-backward needs slices that tile the "
               << width << " columns exactly";
      inputs.push_back(piece.cotangent);
      covered += piece.size;
    }
    if (covered != width)
      return sorted.back().slice->emitError("the slices of this value leave "
                                            "columns [")
             << covered << ", " << width
             << ") without a gradient; coda-generate-backward needs slices "
                "that tile the "
             << width << " columns exactly";
    Value joined =
        inputs.size() == 1
            ? inputs.front()
            : ConcatOp::create(builder, sorted.front().slice->getLoc(),
                               typeOf(value), inputs)
                  .getResult();
    slicePieces.erase(pieces);
    accumulate(value, joined);
  }
  auto it = cotangents.find(value);
  if (it == cotangents.end())
    return Value();
  return it->second;
}

/// Whether tile-local ops compute `value` from a product, so that the
/// epilogue of that product's GEMM makes it.
static bool isMadeByProduct(Value value, DenseSet<Value> &visited) {
  if (!visited.insert(value).second)
    return false;
  Operation *def = value.getDefiningOp();
  if (isa_and_nonnull<MatmulOp, LinearOp>(def))
    return true;
  return def && isTileLocalOp(def) &&
         llvm::any_of(def->getOperands(), [&](Value operand) {
           return isMadeByProduct(operand, visited);
         });
}

/// Whether `user` maps the rows of `operand` linearly, row by row, with
/// nothing else of the graph: a slice, a concat, a scale, or a RoPE of it
/// (whose tables are arguments).
static bool isRowLinearUse(Operation *user, Value operand) {
  if (auto rope = dyn_cast<RoPEOp>(user))
    return rope.getX() == operand;
  return isa<SliceOp, ConcatOp, ScaleOp>(user);
}

/// The function results that `z` reaches through row-linear ops alone, when
/// each value on the way is either returned (and read by nothing) or read
/// only by such ops, and each concat on the way takes only such values.
/// With L that linear map, z's cotangent is dz = Lᵀ · dr, so per row
/// Σ z · dz = Σ (L · z) · dr = Σ r · dr: the RoPE of q and k is orthogonal
/// and the slices and concat only move columns, so the QKV projection's
/// statistic comes from the rotated q|k|v and their cotangents.
FailureOr<SmallVector<Value>>
TrainingPairBuilder::getRowLinearResults(Value z) {
  Operation *ret = original.getBody().front().getTerminator();
  llvm::SetVector<Value> reached, results;
  SmallVector<ConcatOp> concats;
  SmallVector<Value> worklist = {z};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!reached.insert(value))
      continue;
    bool returned = llvm::is_contained(ret->getOperands(), value);
    for (Operation *user : value.getUsers()) {
      if (user == ret)
        continue;
      if (returned || !isRowLinearUse(user, value))
        return failure();
      if (auto concat = dyn_cast<ConcatOp>(user))
        concats.push_back(concat);
      worklist.push_back(user->getResult(0));
    }
    if (returned)
      results.insert(value);
  }
  for (ConcatOp concat : concats)
    if (!llvm::all_of(concat.getInputs(),
                      [&](Value input) { return reached.contains(input); }))
      return failure();
  if (results.empty())
    return failure();
  return SmallVector<Value>(results.begin(), results.end());
}

/// The row statistic of the gradient of `norm`, Σ h · dh per row, by the
/// z·dz identity: when the norm's output h feeds only linears without bias,
/// z = h · Wᵀ, then dh = Σ dz · W and h · dh = Σ z · dz. Each Σ z · dz is
/// taken where it is cheap: from the epilogue that makes dz, when a product
/// makes it, else as Σ r · dr over the results that z reaches through
/// row-linear ops (getRowLinearResults), which the forward saved. Null when
/// neither holds for some linear (the gradient then sums over the row of
/// dh itself).
Value TrainingPairBuilder::buildOutputDotGrad(RMSNormOp norm) {
  Value output = norm.getResult();
  // The products z · dz (or r · dr), summed per width.
  llvm::MapVector<Type, Value> products;
  auto addProduct = [&](Value primalValue, Value cotangent) {
    Value product = MulOp::create(builder, norm.getLoc(), typeOf(primalValue),
                                  primalValue, cotangent);
    auto [it, inserted] = products.try_emplace(primalValue.getType(), product);
    if (!inserted)
      it->second = AddOp::create(builder, norm.getLoc(), typeOf(primalValue),
                                 it->second, product);
  };
  for (Operation *user : output.getUsers()) {
    auto linear = dyn_cast<LinearOp>(user);
    if (!linear || linear.getX() != output || linear.getW() == output ||
        linear.getBias())
      return Value();
    Value dz = cotangents.lookup(linear.getResult());
    if (!dz)
      continue;
    DenseSet<Value> visited;
    if (isMadeByProduct(dz, visited)) {
      addProduct(getPrimal(linear.getResult()), dz);
      continue;
    }
    FailureOr<SmallVector<Value>> results =
        getRowLinearResults(linear.getResult());
    if (failed(results))
      return Value();
    for (Value result : *results)
      addProduct(getPrimal(result), cotangents.lookup(result));
  }
  Value rowDot;
  for (Value product : llvm::make_second_range(products)) {
    Location loc = norm.getLoc();
    Value partials = PartialReduceOp::create(
        builder, loc, getPartialsType(product), product, "sum", IntegerAttr());
    Value sum = finishRowPartials(builder, loc, partials, "sum",
                                  getStatisticType(product));
    rowDot = rowDot ? AddOp::create(builder, loc, sum.getType(), rowDot, sum)
                          .getResult()
                    : sum;
  }
  return rowDot;
}

LogicalResult TrainingPairBuilder::differentiate(Operation *op, Value dy) {
  Location loc = op->getLoc();
  auto grad = [&](Value operand, Value cotangent) {
    if (isFloatTensor(operand.getType()) && !positionTables.contains(operand))
      accumulate(operand, cotangent);
  };
  /// The cotangent of a broadcast operand `b` from the full-shape `full`.
  auto reduceBroadcast = [&](Operation *at, Value b,
                             Value full) -> FailureOr<Value> {
    RankedTensorType type = typeOf(b);
    if (type.getRank() == 1)
      return SumRowsOp::create(builder, loc, type, full).getResult();
    if (type.getDimSize(1) == 1 && typeOf(full).getDimSize(1) != 1)
      return at->emitError("coda-generate-backward has no backward for an "
                           "[M, 1] operand broadcast over columns");
    return full;
  };
  /// `value` in the element type of `like`: a product's cotangent enters
  /// the next product in its operands' type (f32 logits of bf16 operands,
  /// say), as autocast rounds it.
  auto inTypeOf = [&](Value value, Value like) -> Value {
    Type element = typeOf(like).getElementType();
    RankedTensorType type = typeOf(value);
    if (type.getElementType() == element)
      return value;
    auto converted = type.clone(element);
    if (element.getIntOrFloatBitWidth() < type.getElementTypeBitWidth())
      return arith::TruncFOp::create(builder, loc, converted, value);
    return arith::ExtFOp::create(builder, loc, converted, value);
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](LinearOp linear) {
        Value x = getPrimal(linear.getX()), w = getPrimal(linear.getW());
        // The cotangent in each product's operand type, rounded once when
        // both products take the same.
        Value dyForW = inTypeOf(dy, w);
        Value dyForX = typeOf(x).getElementType() == typeOf(w).getElementType()
                           ? dyForW
                           : inTypeOf(dy, x);
        grad(linear.getX(),
             MatmulOp::create(builder, loc, typeOf(x), dyForW, w));
        grad(linear.getW(),
             TransposedMatmulOp::create(builder, loc, typeOf(w), dyForX, x));
        if (Value bias = linear.getBias())
          grad(bias, SumRowsOp::create(builder, loc, typeOf(bias), dy));
        return success();
      })
      .Case([&](MatmulOp matmul) {
        Value a = getPrimal(matmul.getA()), b = getPrimal(matmul.getB());
        grad(matmul.getA(),
             LinearOp::create(builder, loc, typeOf(a), inTypeOf(dy, b), b,
                              /*bias=*/Value()));
        grad(matmul.getB(),
             TransposedMatmulOp::create(builder, loc, typeOf(b), a, dy));
        return success();
      })
      .Case([&](AddOp add) {
        grad(add.getA(), dy);
        FailureOr<Value> db = reduceBroadcast(add, add.getB(), dy);
        if (failed(db))
          return failure();
        grad(add.getB(), *db);
        return success();
      })
      .Case([&](MulOp mul) {
        Value a = getPrimal(mul.getA()), b = getPrimal(mul.getB());
        grad(mul.getA(), MulOp::create(builder, loc, typeOf(a), dy, b));
        Value full = MulOp::create(builder, loc, typeOf(a), dy, a);
        FailureOr<Value> db = reduceBroadcast(mul, mul.getB(), full);
        if (failed(db))
          return failure();
        grad(mul.getB(), *db);
        return success();
      })
      .Case([&](ScaleOp scale) {
        grad(scale.getX(), ScaleOp::create(builder, loc, typeOf(dy), dy,
                                           scale.getFactorAttr()));
        return success();
      })
      .Case<SiLUOp, ReLUOp, SigmoidOp, TanhOp, GELUOp>([&](Operation *act) {
        Value x = getPrimal(act->getOperand(0));
        grad(act->getOperand(0),
             ActivationGradOp::create(
                 builder, loc, typeOf(x), x, dy,
                 builder.getStringAttr(getActivationName(act))));
        return success();
      })
      .Case([&](SwiGLUOp swiglu) {
        // Elementwise: dup = silu(gate) · dy, itself a SwiGLU of gate and
        // dy, and dgate = silu'(gate) · (dy · up). Tile-local, so the dgrad
        // GEMM that produces dy takes both into its epilogue.
        Value gate = getPrimal(swiglu.getGate());
        Value up = getPrimal(swiglu.getUp());
        RankedTensorType type = typeOf(gate);
        grad(swiglu.getGate(),
             ActivationGradOp::create(builder, loc, type, gate,
                                      MulOp::create(builder, loc, type, dy, up),
                                      builder.getStringAttr("silu")));
        grad(swiglu.getUp(), SwiGLUOp::create(builder, loc, type, gate, dy));
        return success();
      })
      .Case([&](RMSNormOp norm) {
        Value x = getPrimal(norm.getX()), gamma = getPrimal(norm.getGamma());
        auto grads =
            RMSNormGradOp::create(builder, loc, typeOf(x), typeOf(gamma), x,
                                  gamma, dy, buildOutputDotGrad(norm),
                                  rstds.lookup(norm), norm.getEpsilonAttr());
        grad(norm.getX(), grads.getDx());
        grad(norm.getGamma(), grads.getDgamma());
        return success();
      })
      .Case([&](LayerNormOp norm) {
        Value x = getPrimal(norm.getX()), gamma = getPrimal(norm.getGamma());
        auto grads = LayerNormGradOp::create(builder, loc, typeOf(x),
                                             typeOf(gamma), typeOf(gamma), x,
                                             gamma, dy, norm.getEpsilonAttr());
        grad(norm.getX(), grads.getDx());
        grad(norm.getGamma(), grads.getDgamma());
        grad(norm.getBeta(), grads.getDbeta());
        return success();
      })
      .Case([&](RoPEOp rope) {
        // The rotation is orthogonal: its transpose rotates by −θ.
        Value cos = getPrimal(rope.getCos()), sin = getPrimal(rope.getSin());
        Value negSin = ScaleOp::create(builder, loc, typeOf(sin), sin,
                                       builder.getF32FloatAttr(-1.0));
        grad(rope.getX(),
             RoPEOp::create(builder, loc, typeOf(dy), dy, cos, negSin,
                            rope.getHeadDimAttr(), rope.getStyleAttr()));
        return success();
      })
      .Case([&](SliceOp slice) {
        slicePieces[slice.getX()].push_back(
            {static_cast<int64_t>(slice.getOffset()),
             static_cast<int64_t>(slice.getSize()), dy, slice});
        return success();
      })
      .Case([&](ConcatOp concat) {
        int64_t offset = 0;
        for (Value input : concat.getInputs()) {
          int64_t width = typeOf(input).getDimSize(1);
          grad(input, SliceOp::create(builder, loc, typeOf(input), dy,
                                      builder.getI64IntegerAttr(offset),
                                      builder.getI64IntegerAttr(width)));
          offset += width;
        }
        return success();
      })
      .Case([&](CrossEntropyOp loss) {
        Value targets = getPrimal(loss.getTargets());
        Value lse = logSumExps.lookup(loss);
        if (!lse) {
          Value logits = getPrimal(loss.getLogits());
          grad(loss.getLogits(),
               CrossEntropyGradOp::create(
                   builder, loc, typeOf(logits), logits, targets, dy, Value(),
                   loss.getIgnoreIndexAttr(), loss.getReductionAttr()));
          return success();
        }
        // With the saved log-sum-exps, the rows' weights (a count over all
        // the rows for "mean"), then the recomputed logits and their
        // tile-local gradient, which the GEMM recomputing them takes into
        // its epilogue.
        Value weights = CrossEntropyRowWeightsOp::create(
            builder, loc, getStatisticType(loss.getLogits()), targets, dy,
            loss.getIgnoreIndexAttr(), loss.getReductionAttr());
        Value logits = getPrimal(loss.getLogits());
        grad(loss.getLogits(),
             SoftmaxTargetGradOp::create(builder, loc, typeOf(logits), logits,
                                         lse, weights, targets));
        return success();
      });
}

LogicalResult TrainingPairBuilder::buildBackward() {
  MLIRContext *context = original.getContext();
  unsigned numArgs = original.getNumArguments();
  SmallVector<Type> inputs(original.getArgumentTypes());
  for (Value value : saved)
    inputs.push_back(value.getType());
  for (CrossEntropyOp loss : savedLogSumExps)
    inputs.push_back(getStatisticType(loss.getLogits()));
  for (RMSNormOp norm : savedRstds)
    inputs.push_back(getStatisticType(norm.getX()));
  llvm::append_range(inputs, original.getResultTypes());
  SmallVector<BlockArgument> differentiated;
  SmallVector<Type> results;
  for (BlockArgument arg : original.getArguments())
    if (isFloatTensor(arg.getType()) && !positionTables.contains(arg)) {
      differentiated.push_back(arg);
      results.push_back(arg.getType());
    }

  builder.setInsertionPointAfter(original);
  auto backward = func::FuncOp::create(
      builder, original.getLoc(), (original.getSymName() + "_backward").str(),
      FunctionType::get(context, inputs, results));
  backward.setVisibility(original.getVisibility());
  backwardFunc = backward;
  Block *entry = backward.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  for (BlockArgument arg : original.getArguments())
    primal.map(arg, entry->getArgument(arg.getArgNumber()));
  for (auto [index, value] : llvm::enumerate(saved))
    primal.map(value, entry->getArgument(numArgs + index));
  for (auto [index, loss] : llvm::enumerate(savedLogSumExps))
    logSumExps[loss] = entry->getArgument(numArgs + saved.size() + index);
  for (auto [index, norm] : llvm::enumerate(savedRstds))
    rstds[norm] = entry->getArgument(numArgs + saved.size() +
                                     savedLogSumExps.size() + index);

  auto ret = cast<func::ReturnOp>(original.getBody().front().getTerminator());
  for (auto [index, result] : llvm::enumerate(ret.getOperands()))
    accumulate(result, entry->getArgument(numArgs + getSavedCount() + index));

  SmallVector<Operation *> ops;
  for (Operation &op : original.getBody().front().without_terminator())
    ops.push_back(&op);
  // check() let through only ops isDifferentiable names, each of one
  // result.
  for (Operation *op : llvm::reverse(ops)) {
    FailureOr<Value> dy = takeCotangent(op->getResult(0));
    if (failed(dy))
      return failure();
    if (!*dy)
      continue;
    if (failed(differentiate(op, *dy)))
      return failure();
  }

  SmallVector<Value> gradients;
  for (auto [index, arg] : llvm::enumerate(differentiated)) {
    FailureOr<Value> gradient = takeCotangent(arg);
    if (failed(gradient))
      return failure();
    if (!*gradient)
      return original.emitError("argument #")
             << arg.getArgNumber() << " of @" << original.getSymName()
             << " reaches no result, so its gradient is zero; remove it "
                "before coda-generate-backward";
    gradients.push_back(*gradient);
    backward.setResultAttr(index, kGradientOfAttr,
                           builder.getI64IntegerAttr(arg.getArgNumber()));
  }
  func::ReturnOp::create(builder, original.getLoc(), gradients);
  backward->setAttr(kSavedAttr, builder.getI64IntegerAttr(getSavedCount()));
  return success();
}

LogicalResult TrainingPairBuilder::build() {
  if (failed(check()))
    return failure();
  collectSaved();
  ModuleOp module = original->getParentOfType<ModuleOp>();
  for (StringRef suffix : {"_forward", "_backward"}) {
    std::string name = (original.getSymName() + suffix).str();
    if (module.lookupSymbol(name))
      return original.emitError("coda-generate-backward would add @")
             << name << ", which the module already has";
  }
  func::FuncOp forward = buildForward();
  if (failed(buildBackward())) {
    forward.erase();
    if (backwardFunc)
      backwardFunc.erase();
    return failure();
  }
  module.insert(std::next(Block::iterator(original)), forward);
  return success();
}

namespace {
struct CodaGenerateBackwardPass
    : public coda::impl::CodaGenerateBackwardPassBase<
          CodaGenerateBackwardPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> targets;
    if (functions.empty()) {
      for (auto func : module.getOps<func::FuncOp>()) {
        if (func.isExternal() || func->hasAttr(kSavedAttr))
          continue;
        bool hasGemm = func.getBody()
                           .walk([](GemmOp) { return WalkResult::interrupt(); })
                           .wasInterrupted();
        bool hasCodaOps =
            llvm::any_of(func.getBody().front(), [](Operation &op) {
              return isa_and_nonnull<CodaDialect>(op.getDialect());
            });
        bool graphLevel = hasCodaOps && !hasGemm;
        if (graphLevel)
          targets.push_back(func);
      }
    } else {
      for (const std::string &name : functions) {
        auto func = module.lookupSymbol<func::FuncOp>(name);
        if (!func || func.isExternal()) {
          module.emitError("coda-generate-backward: no function @")
              << name << " to differentiate";
          return signalPassFailure();
        }
        targets.push_back(func);
      }
    }
    for (func::FuncOp func : targets)
      if (failed(TrainingPairBuilder(func, saveActivations).build()))
        return signalPassFailure();
  }
};
} // namespace
