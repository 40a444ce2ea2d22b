//===- CodaOps.h - coda operation declarations ------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_DIALECT_CODA_IR_CODAOPS_H
#define CODA_DIALECT_CODA_IR_CODAOPS_H

#include "coda/Dialect/Coda/IR/CodaDialect.h"
#include "coda/Dialect/Coda/IR/CodaTraits.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "coda/Dialect/Coda/IR/CodaOps.h.inc"

namespace mlir::coda {
/// Returns true for the ops a GEMM epilogue can compute on an output tile in
/// registers: elementwise and broadcasting maps, pairwise maps within a row,
/// slices, concats, the cross-entropy gradient of a logit from its row's
/// statistics (softmax_target_grad) and partial reductions (gemm_c4).
bool isTileLocalOp(Operation *op);

/// The tile whose partials epilogue value `value` holds (the input of a
/// partial reduction or gather along the rows, or of per-block sums over
/// the rows), or null for a tile value, which an epilogue stores as it is.
Value getPartialsSource(Value value);

/// The per-block sums over rows whose partials `value` holds, when it is a
/// GEMM result that its epilogue yields from a coda.partial_sum_rows; null
/// otherwise.
PartialSumRowsOp getPartialSumRowsOf(Value value);
} // namespace mlir::coda

#endif // CODA_DIALECT_CODA_IR_CODAOPS_H
