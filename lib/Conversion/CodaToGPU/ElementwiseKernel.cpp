//===- ElementwiseKernel.cpp - standalone elementwise kernels -------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The tile-local maps that no GEMM takes into its epilogue (the backward's
// residual sums, a recomputed SwiGLU, the inverse RoPE of a cotangent and
// the slices and concat around it): one CTA per output row, its threads
// reading and writing 16 consecutive bytes each per step, so every access
// is a coalesced vector access. A concat's pieces are loops of their own
// over the piece's columns.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseKernel.h"

#include "VectorAccess.h"
#include "coda/Dialect/Coda/Utils/ScalarMath.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::coda;

/// Threads of an elementwise kernel's CTA.
constexpr int64_t kThreads = 128;

/// Whether `op` moves or rotates columns of one row: a slice, a concat, or
/// a "half" RoPE (whose partners are head_dim / 2 columns apart).
static bool isColumnMap(Operation *op) {
  if (auto rope = dyn_cast<RoPEOp>(op))
    return rope.getStyle() == "half";
  return isa<SliceOp, ConcatOp>(op);
}

bool mlir::coda::isElementwiseKernelOp(Operation *op) {
  if (!(hasScalarForm(op) || isColumnMap(op)) ||
      isa<GemmOp>(op->getParentOp()) || op->getNumResults() != 1)
    return false;
  auto resultType = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!resultType || resultType.getRank() != 2)
    return false;
  auto isFloat = [](Type type) {
    return type.isBF16() || type.isF16() || type.isF32();
  };
  if (!isFloat(resultType.getElementType()))
    return false;
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<RankedTensorType>(operand.getType());
    if (!type || !isFloat(type.getElementType()) || type.getRank() < 1)
      return false;
  }
  return true;
}

void mlir::coda::emitElementwiseKernel(OpBuilder &b, Operation *op,
                                       StringRef name) {
  MLIRContext *context = b.getContext();
  Location loc = op->getLoc();
  auto pointer = LLVM::LLVMPointerType::get(context);
  SmallVector<Type> arguments = {b.getI32Type()};
  arguments.append(op->getNumOperands() + 1, pointer);
  auto kernel = gpu::GPUFuncOp::create(
      b, loc, name, FunctionType::get(context, arguments, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  kernel.setKnownBlockSizeAttr(b.getDenseI32ArrayAttr({kThreads, 1, 1}));

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&kernel.getBody().front());
  auto index = [&](int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value).getResult();
  };
  auto widthOf = [](Value value) {
    auto type = cast<RankedTensorType>(value.getType());
    return type.getDimSize(type.getRank() - 1);
  };
  auto elementOf = [](Value value) {
    return cast<RankedTensorType>(value.getType()).getElementType();
  };
  Value result = op->getResult(0);
  int64_t columns = widthOf(result);
  ValueRange args = kernel.getArguments();
  ValueRange operandArgs = args.slice(1, op->getNumOperands());
  Value rows = arith::IndexCastOp::create(b, loc, b.getIndexType(), args[0]);
  Value row = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value inside =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row, rows);
  // Each thread takes `lanes` consecutive columns per step, 16 bytes of the
  // widest element, when every row, column offset and RoPE half head is a
  // whole number of such groups (the groups then stay 16-byte aligned);
  // else one.
  int64_t widest = elementOf(result).getIntOrFloatBitWidth();
  for (Value operand : op->getOperands())
    widest =
        std::max<int64_t>(widest, elementOf(operand).getIntOrFloatBitWidth());
  int64_t lanes = 128 / widest;
  SmallVector<int64_t> alignedSizes;
  for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults()))
    if (widthOf(value) != 1)
      alignedSizes.push_back(widthOf(value));
  if (auto slice = dyn_cast<SliceOp>(op))
    alignedSizes.push_back(slice.getOffset());
  if (auto rope = dyn_cast<RoPEOp>(op))
    alignedSizes.push_back(rope.getHeadDim() / 2);
  if (llvm::any_of(alignedSizes, [&](int64_t size) { return size % lanes; }))
    lanes = 1;

  // `lanes` elements of operand `i` at `position`, or one element of a
  // per-row column broadcast to all lanes.
  auto load = [&](unsigned i, Value position, bool broadcast) {
    Type type = elementOf(op->getOperand(i));
    if (!broadcast)
      return loadWidened(b, loc, operandArgs[i], type, position, lanes);
    return SmallVector<Value>(
        lanes, loadWidened(b, loc, operandArgs[i], type, position, 1).front());
  };
  // Element (row, column) of an operand of `width` columns.
  auto at = [&](int64_t width, Value column) -> Value {
    return arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, index(width)), column);
  };
  // The result's lanes at `column`, which lies in concat piece `piece`
  // (starting at column `start`) for a concat.
  auto evaluate = [&](unsigned piece, int64_t start,
                      Value column) -> SmallVector<Value> {
    if (isa<ConcatOp>(op)) {
      Value local = arith::SubIOp::create(b, loc, column, index(start));
      return load(piece, at(widthOf(op->getOperand(piece)), local), false);
    }
    if (auto slice = dyn_cast<SliceOp>(op)) {
      Value source =
          arith::AddIOp::create(b, loc, column, index(slice.getOffset()));
      return load(0, at(widthOf(slice.getX()), source), false);
    }
    if (auto rope = dyn_cast<RoPEOp>(op)) {
      // First half of a head: x₁ cos − x₂ sin, its partner half a head on;
      // second half: x₂ cos + x₁ sin, its partner half a head back.
      int64_t half = rope.getHeadDim() / 2;
      Value withinHead =
          arith::RemUIOp::create(b, loc, column, index(rope.getHeadDim()));
      Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                          withinHead, index(half));
      Value partner = arith::SelectOp::create(
          b, loc, first, arith::AddIOp::create(b, loc, column, index(half)),
          arith::SubIOp::create(b, loc, column, index(half)));
      int64_t width = widthOf(rope.getX());
      SmallVector<Value> x = load(0, at(width, column), false);
      SmallVector<Value> other = load(0, at(width, partner), false);
      Value angle =
          at(half, arith::RemUIOp::create(b, loc, column, index(half)));
      SmallVector<Value> cos = load(1, angle, false);
      SmallVector<Value> sin = load(2, angle, false);
      SmallVector<Value> values;
      for (int64_t lane = 0; lane < lanes; ++lane) {
        Value signedOther = arith::SelectOp::create(
            b, loc, first, arith::NegFOp::create(b, loc, other[lane]),
            other[lane]);
        values.push_back(arith::AddFOp::create(
            b, loc, arith::MulFOp::create(b, loc, x[lane], cos[lane]),
            arith::MulFOp::create(b, loc, signedOther, sin[lane])));
      }
      return values;
    }
    SmallVector<SmallVector<Value>> operands;
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      auto type = cast<RankedTensorType>(operand.getType());
      // [M, N] by position, a vector [N] by column, a column [M, 1] by row.
      bool perRow = type.getRank() == 2 && type.getDimSize(1) == 1;
      Value position = type.getRank() == 1 ? column
                       : perRow            ? row
                                           : at(columns, column);
      operands.push_back(load(i, position, perRow));
    }
    SmallVector<Value> values;
    for (int64_t lane = 0; lane < lanes; ++lane) {
      SmallVector<Value> laneArgs;
      for (SmallVector<Value> &laneValues : operands)
        laneArgs.push_back(laneValues[lane]);
      values.push_back(buildElementwiseScalar(b, loc, op, laneArgs));
    }
    return values;
  };

  // The column ranges computed by loops of their own: a concat's pieces,
  // else the whole row.
  SmallVector<std::pair<int64_t, int64_t>> pieces;
  if (isa<ConcatOp>(op)) {
    int64_t start = 0;
    for (Value input : op->getOperands()) {
      pieces.push_back({start, start + widthOf(input)});
      start += widthOf(input);
    }
  } else {
    pieces.push_back({0, columns});
  }
  scf::IfOp::create(b, loc, inside, [&](OpBuilder &, Location) {
    Value first = arith::MulIOp::create(
        b, loc, gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x),
        index(lanes));
    for (auto [i, range] : llvm::enumerate(pieces)) {
      unsigned piece = i;
      int64_t start = range.first;
      scf::ForOp::create(
          b, loc, arith::AddIOp::create(b, loc, first, index(start)),
          index(range.second), index(kThreads * lanes), ValueRange(),
          [&](OpBuilder &, Location, Value column, ValueRange) {
            SmallVector<Value> values = evaluate(piece, start, column);
            storeNarrowed(b, loc, values, args.back(), elementOf(result),
                          at(columns, column));
            scf::YieldOp::create(b, loc);
          });
    }
    scf::YieldOp::create(b, loc);
  });
  gpu::ReturnOp::create(b, loc);
}
