//===- NormKernels.cpp - norms and their gradients as row kernels ---------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A warp owns a row: lane l holds the groups of 16 bytes that start at
// columns lanes · (l + 32 i), so every load of the warp is 512 contiguous
// bytes and a row's loads are all in flight before the first reduction (a
// norm's row kernel takes narrower groups where 16-byte ones do not tile
// its row).
// Row statistics are sums over the warp (xor shuffles); the gradient's sums
// over rows stay in each lane's registers until the warp has seen its rows.
//
//===----------------------------------------------------------------------===//

#include "NormKernels.h"

#include "KernelFunction.h"
#include "LaneSums.h"
#include "VectorAccess.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::coda;

/// Elements of `type` in 16 bytes.
static int64_t getLanes(Type type) {
  return 128 / type.getIntOrFloatBitWidth();
}

/// Elements per access of a norm's row kernel, where a warp owns a row of
/// `columns`: 16 bytes of `type`, or the widest power of two of elements
/// below that whose groups tile the row over the 32 lanes.
static int64_t getRowLanes(Type type, int64_t columns) {
  int64_t lanes = getLanes(type);
  while (lanes > 1 && columns % (32 * lanes) != 0)
    lanes /= 2;
  return lanes;
}

bool mlir::coda::isNormKernelOp(Operation *op) {
  return isa<RMSNormOp, LayerNormOp, RMSNormGradPartialsOp,
             LayerNormGradPartialsOp, SumRowsOp>(op);
}

LogicalResult mlir::coda::checkNormKernelSupport(Operation *op) {
  if (isa<SumRowsOp>(op))
    return success();
  auto type = cast<RankedTensorType>(op->getOperand(0).getType());
  if (isa<RMSNormOp, LayerNormOp>(op)) {
    if (type.getDimSize(1) % 32 != 0)
      return op->emitError("the norm kernels give each of the 32 lanes of a "
                           "row's warp the same number of columns, so rows "
                           "need a multiple of 32 columns; x has ")
             << type.getDimSize(1);
    return success();
  }
  int64_t groupColumns = 32 * getLanes(type.getElementType());
  if (type.getDimSize(1) % groupColumns != 0)
    return op->emitError("the norm kernels give each lane of a row's warp 16 "
                         "bytes at a time, so rows of ")
           << type.getElementType() << " need a multiple of " << groupColumns
           << " columns; x has " << type.getDimSize(1);
  return success();
}

namespace {
/// A row's normalization, x̂ = (x − mean) · rstd; no mean for RMSNorm.
struct RowStatistics {
  Value mean, rstd;
};

/// One row of `columns` elements as a warp sees it: lane `lane` holds
/// groups of `lanes` columns starting at lanes · (lane + 32 i).
struct WarpRow {
  OpBuilder &b;
  Location loc;
  int64_t columns, lanes;
  Value lane;

  using Groups = SmallVector<SmallVector<Value>>;

  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value mul(Value x, Value y) { return arith::MulFOp::create(b, loc, x, y); }
  Value count() {
    return arith::ConstantOp::create(b, loc,
                                     b.getF32FloatAttr(double(columns)));
  }
  int64_t groups() const { return columns / (32 * lanes); }
  Value column(int64_t group) {
    return arith::MulIOp::create(
        b, loc, arith::AddIOp::create(b, loc, lane, index(32 * group)),
        index(lanes));
  }
  /// Element (row, column(group)) of a [rows, columns] array, or
  /// column(group) of a vector when `row` is null.
  Value position(Value row, int64_t group) {
    if (!row)
      return column(group);
    return arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, index(columns)),
        column(group));
  }
  /// Every group of the row (or vector) at `base`, widened to f32.
  Groups load(Value base, Type type, Value row) {
    Groups values;
    for (int64_t group = 0; group < groups(); ++group)
      values.push_back(
          loadWidened(b, loc, base, type, position(row, group), lanes));
    return values;
  }
  void store(ArrayRef<SmallVector<Value>> values, Value base, Type type,
             Value row) {
    for (auto [group, groupValues] : llvm::enumerate(values))
      storeNarrowed(b, loc, groupValues, base, type,
                    position(row, int64_t(group)));
  }
  /// `f` of every element of the row, in place.
  void update(Groups &values, function_ref<Value(int64_t, int64_t)> f) {
    for (int64_t g = 0; g < groups(); ++g)
      for (int64_t e = 0; e < lanes; ++e)
        values[g][e] = f(g, e);
  }
  /// The sum over the whole row of `term(group, lane)`, in every lane.
  Value sum(function_ref<Value(int64_t, int64_t)> term) {
    Value total;
    for (int64_t group = 0; group < groups(); ++group)
      for (int64_t e = 0; e < lanes; ++e) {
        Value value = term(group, e);
        total = total ? arith::AddFOp::create(b, loc, total, value).getResult()
                      : value;
      }
    return sumAcrossLanes(b, loc, total, {16, 8, 4, 2, 1});
  }
  /// The row's mean when `centred` (LayerNorm), and rsqrt(mean of the
  /// (centred) squares + epsilon), the variance biased as PyTorch's.
  RowStatistics statistics(const Groups &x, bool centred, FloatAttr epsilon) {
    RowStatistics row;
    if (centred)
      row.mean = arith::DivFOp::create(
          b, loc, sum([&](int64_t g, int64_t e) { return x[g][e]; }), count());
    Value squares = sum([&](int64_t g, int64_t e) {
      Value value = centre(x[g][e], row);
      return mul(value, value);
    });
    row.rstd = math::RsqrtOp::create(
        b, loc,
        arith::AddFOp::create(b, loc,
                              arith::DivFOp::create(b, loc, squares, count()),
                              arith::ConstantOp::create(b, loc, epsilon)));
    return row;
  }
  Value centre(Value x, const RowStatistics &row) {
    return row.mean ? arith::SubFOp::create(b, loc, x, row.mean).getResult()
                    : x;
  }
  /// x̂ of one element.
  Value normalize(Value x, const RowStatistics &row) {
    return mul(centre(x, row), row.rstd);
  }
};
} // namespace

static Type getElementType(Value value) {
  return cast<RankedTensorType>(value.getType()).getElementType();
}

/// coda.rms_norm and coda.layer_norm: y = x̂ · gamma (+ beta).
template <typename NormOp>
static void emitRowNormKernel(OpBuilder &b, NormOp op, StringRef name) {
  constexpr bool centred = std::is_same_v<NormOp, LayerNormOp>;
  Location loc = op.getLoc();
  auto kernel = createRowCountKernel(b, loc, name, centred ? 4 : 3,
                                     int32_t(32 * kNormRowsPerBlock));
  ValueRange args = kernel.getArguments();
  Type xType = getElementType(op.getX());
  Value lane, row;
  std::tie(lane, row) = getWarpRow(b, loc, kNormRowsPerBlock);
  int64_t columns = cast<RankedTensorType>(op.getX().getType()).getDimSize(1);
  WarpRow warp{b, loc, columns, getRowLanes(xType, columns), lane};
  Value rows = arith::IndexCastOp::create(b, loc, b.getIndexType(), args[0]);
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rows);
  scf::IfOp::create(b, loc, inside, [&](OpBuilder &, Location) {
    auto x = warp.load(args[1], xType, row);
    RowStatistics statistics = warp.statistics(x, centred, op.getEpsilonAttr());
    auto gamma = warp.load(args[2], getElementType(op.getGamma()), Value());
    WarpRow::Groups beta;
    if constexpr (centred)
      beta = warp.load(args[3], getElementType(op.getBeta()), Value());
    warp.update(x, [&](int64_t g, int64_t e) -> Value {
      Value value = warp.mul(warp.normalize(x[g][e], statistics), gamma[g][e]);
      return centred ? arith::AddFOp::create(b, loc, value, beta[g][e]) : value;
    });
    warp.store(x, args.back(), xType, row);
    scf::YieldOp::create(b, loc);
  });
  gpu::ReturnOp::create(b, loc);
}

/// coda.rms_norm_grad_partials and coda.layer_norm_grad_partials. Per row,
/// with g = gamma · dy: dx = rstd · (g − mean(g) − x̂ · mean(g · x̂))
/// (+ residual), mean(g) only for LayerNorm; over the warp's rows, the
/// lane's sums of dy · x̂ (dgamma) and, for LayerNorm, of dy (dbeta).
template <typename GradOp>
static void emitNormGradKernel(OpBuilder &b, GradOp op, StringRef name) {
  constexpr bool centred = std::is_same_v<GradOp, LayerNormGradPartialsOp>;
  constexpr unsigned partials = centred ? 2 : 1;
  Location loc = op.getLoc();
  bool hasResidual = bool(op.getResidual());
  auto kernel = createRowCountKernel(b, loc, name, 4 + hasResidual + partials,
                                     kNormGradientThreads);
  ValueRange args = kernel.getArguments();
  Value x = args[1], gamma = args[2], dy = args[3];
  Value residual = hasResidual ? args[4] : Value();
  ValueRange partialsArgs = args.slice(4 + hasResidual, partials);
  Value dx = args.back();
  Type xType = getElementType(op.getX());
  Type f32 = b.getF32Type();
  int64_t columns = cast<RankedTensorType>(op.getX().getType()).getDimSize(1);
  WarpRow warp{b, loc, columns, getLanes(xType),
               gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x)};
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value rows = arith::IndexCastOp::create(b, loc, b.getIndexType(), args[0]);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
  int64_t perLane = warp.groups() * warp.lanes;

  // The lane's sums, partial by partial and group by group, carried over
  // the warp's rows.
  auto loop = scf::ForOp::create(
      b, loc, block, rows, warp.index(kNormGradientBlocks),
      SmallVector<Value>(partials * perLane, zero),
      [&](OpBuilder &, Location, Value row, ValueRange sums) {
        auto xs = warp.load(x, xType, row);
        auto dys = warp.load(dy, getElementType(op.getDy()), row);
        auto gammas = warp.load(gamma, getElementType(op.getGamma()), Value());
        RowStatistics statistics =
            warp.statistics(xs, centred, op.getEpsilonAttr());
        warp.update(xs, [&](int64_t g, int64_t e) {
          return warp.normalize(xs[g][e], statistics);
        });
        auto grads = dys;
        warp.update(grads, [&](int64_t g, int64_t e) {
          return warp.mul(gammas[g][e], dys[g][e]);
        });
        Value meanGrad;
        if (centred)
          meanGrad = arith::DivFOp::create(
              b, loc,
              warp.sum([&](int64_t g, int64_t e) { return grads[g][e]; }),
              warp.count());
        Value meanDot =
            arith::DivFOp::create(b, loc, warp.sum([&](int64_t g, int64_t e) {
              return warp.mul(grads[g][e], xs[g][e]);
            }),
                                  warp.count());
        WarpRow::Groups residuals;
        if (residual)
          residuals =
              warp.load(residual, getElementType(op.getResidual()), row);
        SmallVector<Value> next(sums);
        warp.update(grads, [&](int64_t g, int64_t e) {
          Value value = grads[g][e];
          if (meanGrad)
            value = arith::SubFOp::create(b, loc, value, meanGrad);
          value = warp.mul(statistics.rstd,
                           arith::SubFOp::create(b, loc, value,
                                                 warp.mul(xs[g][e], meanDot)));
          if (residual)
            value = arith::AddFOp::create(b, loc, value, residuals[g][e]);
          int64_t at = g * warp.lanes + e;
          next[at] = arith::AddFOp::create(b, loc, sums[at],
                                           warp.mul(dys[g][e], xs[g][e]));
          if (centred)
            next[perLane + at] =
                arith::AddFOp::create(b, loc, sums[perLane + at], dys[g][e]);
          return value;
        });
        warp.store(grads, dx, getElementType(op.getDx()), row);
        scf::YieldOp::create(b, loc, next);
      });
  for (unsigned p = 0; p < partials; ++p) {
    WarpRow::Groups sums;
    for (int64_t g = 0; g < warp.groups(); ++g)
      sums.push_back(SmallVector<Value>(
          loop.getResults().slice(p * perLane + g * warp.lanes, warp.lanes)));
    warp.store(sums, partialsArgs[p], f32, block);
  }
  gpu::ReturnOp::create(b, loc);
}

/// Loads in flight per lane of a sum_rows kernel.
constexpr int64_t kSumRowsUnroll = 16;

static void emitSumRowsKernel(OpBuilder &b, SumRowsOp op, StringRef name) {
  Location loc = op.getLoc();
  auto kernel = createRowCountKernel(b, loc, name, 2, int32_t(kSumRowsThreads));
  constexpr int64_t warps = kSumRowsThreads / 32;
  Type f32 = b.getF32Type();
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  Value shared = kernel.addWorkgroupAttribution(
      MemRefType::get({warps, kSumRowsColumns}, f32,
                      MemRefLayoutAttrInterface(), workgroup),
      loc);
  ValueRange args = kernel.getArguments();
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  int64_t columns = cast<RankedTensorType>(op.getX().getType()).getDimSize(1);
  Type xType = getElementType(op.getX());
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value lane = arith::RemUIOp::create(b, loc, tid, index(32));
  Value warp = arith::DivUIOp::create(b, loc, tid, index(32));
  Value column = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc,
                            gpu::BlockIdOp::create(b, loc, gpu::Dimension::y),
                            index(kSumRowsColumns)),
      lane);
  Value readColumn = arith::MinUIOp::create(b, loc, column, index(columns - 1));
  Value rows = arith::IndexCastOp::create(b, loc, b.getIndexType(), args[0]);
  Value lastRow = arith::SubIOp::create(b, loc, rows, index(1));
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0));
  // Warp w sums rows w + warps · k; kSumRowsUnroll loads at clamped rows
  // are in flight together, the ones past the last row counted as 0.
  auto loop = scf::ForOp::create(
      b, loc, index(0), rows, index(warps * kSumRowsUnroll), ValueRange{zero},
      [&](OpBuilder &, Location, Value base, ValueRange sum) {
        Value total = sum[0];
        for (int64_t u = 0; u < kSumRowsUnroll; ++u) {
          Value row = arith::AddIOp::create(
              b, loc, arith::AddIOp::create(b, loc, base, warp),
              index(warps * u));
          Value valid = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                              row, rows);
          Value position = arith::AddIOp::create(
              b, loc,
              arith::MulIOp::create(
                  b, loc, arith::MinUIOp::create(b, loc, row, lastRow),
                  index(columns)),
              readColumn);
          Value value =
              loadWidened(b, loc, args[1], xType, position, 1).front();
          total = arith::AddFOp::create(
              b, loc, total,
              arith::SelectOp::create(b, loc, valid, value, zero));
        }
        scf::YieldOp::create(b, loc, total);
      });
  memref::StoreOp::create(b, loc, loop.getResult(0), shared,
                          ValueRange{warp, lane});
  gpu::BarrierOp::create(b, loc);
  Value first = arith::AndIOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, warp, index(0)),
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, column,
                            index(columns)));
  scf::IfOp::create(b, loc, first, [&](OpBuilder &, Location) {
    Value total;
    for (int64_t w = 0; w < warps; ++w) {
      Value value =
          memref::LoadOp::create(b, loc, shared, ValueRange{index(w), lane});
      total = total ? arith::AddFOp::create(b, loc, total, value).getResult()
                    : value;
    }
    storeNarrowed(b, loc, total, args[2], getElementType(op.getResult()),
                  column);
    scf::YieldOp::create(b, loc);
  });
  gpu::ReturnOp::create(b, loc);
}

void mlir::coda::emitNormKernel(OpBuilder &b, Operation *op, StringRef name) {
  OpBuilder::InsertionGuard guard(b);
  if (auto norm = dyn_cast<RMSNormOp>(op))
    emitRowNormKernel(b, norm, name);
  else if (auto norm = dyn_cast<LayerNormOp>(op))
    emitRowNormKernel(b, norm, name);
  else if (auto grad = dyn_cast<RMSNormGradPartialsOp>(op))
    emitNormGradKernel(b, grad, name);
  else if (auto grad = dyn_cast<LayerNormGradPartialsOp>(op))
    emitNormGradKernel(b, grad, name);
  else
    emitSumRowsKernel(b, cast<SumRowsOp>(op), name);
}
