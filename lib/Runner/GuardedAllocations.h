//===- GuardedAllocations.h - checked allocations ---------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CPU pipeline's code allocates its buffers with the C library's malloc
// and writes them without a null check, so an allocation that fails would
// crash the process. The executor binds the compiled function's allocation
// functions to these instead: a failed allocation frees what the call holds
// and returns from the call with the failure's numbers.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_RUNNER_GUARDEDALLOCATIONS_H
#define CODA_LIB_RUNNER_GUARDEDALLOCATIONS_H

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"

#include <cstdint>
#include <optional>

namespace mlir::coda {

/// malloc, calloc and free for a JIT-compiled function (LLVM may turn a
/// malloc followed by a memset of zeros into calloc).
llvm::orc::SymbolMap
getGuardedAllocationSymbols(llvm::orc::MangleAndInterner interner);

/// An allocation that failed: the bytes it asked for, and the bytes the
/// call's live buffers held then.
struct AllocationFailure {
  uint64_t requested = 0;
  uint64_t held = 0;
};

/// Calls the packed function `function` with `arguments`. If one of its
/// guarded allocations fails, the call's live buffers are freed and the
/// failure returned; its other allocations (its results) are the caller's.
std::optional<AllocationFailure>
callWithGuardedAllocations(void (*function)(void **), void **arguments);

} // namespace mlir::coda

#endif // CODA_LIB_RUNNER_GUARDEDALLOCATIONS_H
