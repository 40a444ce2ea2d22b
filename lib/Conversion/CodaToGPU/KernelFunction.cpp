//===- KernelFunction.cpp - kernel frames and loop hints ------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "KernelFunction.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

using namespace mlir;

void mlir::coda::emitGridDependencyWait(OpBuilder &b, Location loc) {
  NVVM::GriddepcontrolOp::create(b, loc, NVVM::GridDepActionKind::wait);
}

void mlir::coda::emitDependentsLaunch(OpBuilder &b, Location loc) {
  NVVM::GriddepcontrolOp::create(b, loc,
                                 NVVM::GridDepActionKind::launch_dependents);
}

gpu::GPUFuncOp mlir::coda::createRowCountKernel(OpBuilder &b, Location loc,
                                                StringRef name,
                                                unsigned pointers,
                                                int64_t threads) {
  MLIRContext *context = b.getContext();
  SmallVector<Type> arguments = {b.getI32Type()};
  arguments.append(pointers, LLVM::LLVMPointerType::get(context));
  auto kernel = gpu::GPUFuncOp::create(
      b, loc, name, FunctionType::get(context, arguments, {}));
  kernel->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  kernel.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({int32_t(threads), 1, 1}));
  b.setInsertionPointToStart(&kernel.getBody().front());
  emitGridDependencyWait(b, loc);
  return kernel;
}

std::pair<Value, Value> mlir::coda::getWarpRow(OpBuilder &b, Location loc,
                                               int64_t rowsPerBlock) {
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Value tid = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value lane = arith::RemUIOp::create(b, loc, tid, index(32));
  Value row = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(b, loc,
                            gpu::BlockIdOp::create(b, loc, gpu::Dimension::x),
                            index(rowsPerBlock)),
      arith::DivUIOp::create(b, loc, tid, index(32)));
  return {lane, row};
}

Value mlir::coda::emitOpaqueCopy(OpBuilder &b, Location loc, Value value) {
  StringRef constraints = value.getType().isF32() ? "=f,f" : "=r,r";
  return LLVM::InlineAsmOp::create(
             b, loc, value.getType(), ValueRange{value}, "mov.b32 $0, $1;",
             constraints, /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::TailCallKind::None, LLVM::AsmDialectAttr(), ArrayAttr())
      .getResult(0);
}

void mlir::coda::keepRolled(scf::ForOp loop) {
  MLIRContext *context = loop.getContext();
  Builder b(context);
  auto noUnroll = LLVM::LoopAnnotationAttr::get(
      context, {}, {}, {},
      LLVM::LoopUnrollAttr::get(context, b.getBoolAttr(true), {}, {}, {}, {},
                                {}, {}),
      {}, {}, {}, {}, {}, {}, {}, {}, {}, {}, {});
  loop->setAttr(LLVM::BrOp::getLoopAnnotationAttrName(
                    OperationName(LLVM::BrOp::getOperationName(), context)),
                noUnroll);
}
