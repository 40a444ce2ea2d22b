//===- CodaToLinalg.cpp - the CPU reference lowering ----------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda/Conversion/CodaToLinalg.h"

#include "Patterns.h"
#include "coda/Conversion/Passes.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::coda {
#define GEN_PASS_DEF_CONVERTCODATOLINALGPASS
#include "coda/Conversion/Passes.h.inc"
} // namespace mlir::coda

using namespace mlir;
using namespace mlir::coda;

CodaToLinalgTypeConverter::CodaToLinalgTypeConverter(bool computeInF64)
    : computeInF64(computeInF64) {
  addConversion([](Type type) { return type; });
  addConversion([computeInF64](RankedTensorType type) -> Type {
    if (!computeInF64 || !isa<FloatType>(type.getElementType()))
      return type;
    return type.clone(Float64Type::get(type.getContext()));
  });
}

Type CodaToLinalgTypeConverter::getComputeType(MLIRContext *context) const {
  if (computeInF64)
    return Float64Type::get(context);
  return Float32Type::get(context);
}

void mlir::coda::populateCodaToLinalgPatterns(
    const CodaToLinalgTypeConverter &converter, RewritePatternSet &patterns) {
  populateElementwiseLoweringPatterns(converter, patterns);
  populateReductionLoweringPatterns(converter, patterns);
  populateContractionLoweringPatterns(converter, patterns);
  populateGradientLoweringPatterns(converter, patterns);
}

namespace {
/// Rebuilds a tensor reshape or cast on converted operands with converted
/// result types: these ops carry any element type along unchanged.
struct RetypeTensorOp : public ConversionPattern {
  RetypeTensorOp(const TypeConverter &converter, MLIRContext *context,
                 StringRef name)
      : ConversionPattern(converter, name, /*benefit=*/1, context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    SmallVector<Type> types;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), types)))
      return rewriter.notifyMatchFailure(op, "result types do not convert");
    IRMapping mapping;
    mapping.map(op->getOperands(), operands);
    Operation *retyped = rewriter.clone(*op, mapping);
    for (auto [result, type] : llvm::zip_equal(retyped->getResults(), types))
      result.setType(type);
    rewriter.replaceOp(op, retyped->getResults());
    return success();
  }
};

struct ConvertCodaToLinalgPass
    : public coda::impl::ConvertCodaToLinalgPassBase<ConvertCodaToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    // Epilogue programs are lowered through their graph-level form.
    WalkResult gemms = getOperation().walk([](GemmOp gemm) {
      gemm.emitError("convert-coda-to-linalg takes graph-level ops: run "
                     "coda-inline-epilogues first (coda-cpu-pipeline does)");
      return WalkResult::interrupt();
    });
    if (gemms.wasInterrupted())
      return signalPassFailure();
    CodaToLinalgTypeConverter converter(computeInF64);

    ConversionTarget target(*context);
    target.addIllegalDialect<CodaDialect>();
    target.addLegalDialect<linalg::LinalgDialect, math::MathDialect,
                           tensor::TensorDialect>();
    // Casts of whole tensors are what coda-inline-epilogues leaves; scalar
    // arithmetic is what the lowering builds.
    target.addDynamicallyLegalDialect<arith::ArithDialect>([](Operation *op) {
      return llvm::none_of(op->getResultTypes(), llvm::IsaPred<TensorType>);
    });
    target.addDynamicallyLegalOp<tensor::CastOp, tensor::ExpandShapeOp,
                                 tensor::CollapseShapeOp>(
        [&](Operation *op) { return converter.isLegal(op); });
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp func) {
      return converter.isSignatureLegal(func.getFunctionType()) &&
             converter.isLegal(&func.getBody());
    });
    target.addDynamicallyLegalOp<func::ReturnOp, func::CallOp>(
        [&](Operation *op) { return converter.isLegal(op); });

    RewritePatternSet patterns(context);
    populateCodaToLinalgPatterns(converter, patterns);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    // Reshapes and casts of tensors carry their element type along.
    for (StringRef name : {tensor::CastOp::getOperationName(),
                           tensor::ExpandShapeOp::getOperationName(),
                           tensor::CollapseShapeOp::getOperationName()})
      patterns.add<RetypeTensorOp>(converter, context, name);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
