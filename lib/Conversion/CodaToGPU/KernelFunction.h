//===- KernelFunction.h - kernel frames and loop hints ----------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_KERNELFUNCTION_H
#define CODA_LIB_CONVERSION_CODATOGPU_KERNELFUNCTION_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <utility>

namespace mlir::coda {

/// Waits until the grids before this one have finished and their memory is
/// visible (`griddepcontrol.wait`). Every kernel calls it before its first
/// access to global memory, so that the runtime can launch it while the
/// kernel before it finishes (the plan's "dependent_launch").
void emitGridDependencyWait(OpBuilder &builder, Location loc);

/// Lets the grid after this one launch once every CTA has done so or exited
/// (`griddepcontrol.launch_dependents`; one thread per CTA suffices).
void emitDependentsLaunch(OpBuilder &builder, Location loc);

/// Creates, at the builder's insertion point, a `gpu.func` kernel named
/// `name` taking the row count as i32 and then `pointers` pointers, with
/// `threads` threads per block, starts its body with
/// emitGridDependencyWait, and moves the builder after it (callers restore
/// it with an InsertionGuard).
gpu::GPUFuncOp createRowCountKernel(OpBuilder &builder, Location loc,
                                    StringRef name, unsigned pointers,
                                    int64_t threads);

/// The lane of the calling thread in its warp, and the row that warp owns,
/// when the warps of a block take `rowsPerBlock` consecutive rows, one each.
std::pair<Value, Value> getWarpRow(OpBuilder &builder, Location loc,
                                   int64_t rowsPerBlock);

/// A copy of the i32 or f32 `value` that LLVM cannot see through (an opaque
/// `mov`): what is computed from it stays where it is emitted, inside its
/// loop, rather than hoisted before the loop and held in registers across
/// it, and what it is computed from is not sunk past it.
Value emitOpaqueCopy(OpBuilder &builder, Location loc, Value value);

/// Asks LLVM not to unroll `loop` (a loop annotation the lowering to LLVM
/// carries to its latch).
void keepRolled(scf::ForOp loop);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_KERNELFUNCTION_H
