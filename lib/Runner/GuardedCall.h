//===- GuardedCall.h - a compiled function's failures as errors -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The CPU pipeline's code allocates its buffers with the C library's malloc
// and writes them without a null check, and its runtime checks (cf.assert)
// print with puts and call abort: either would end the process. The
// executor binds the compiled function's malloc, calloc, free, puts and
// abort to these instead, and calls it through callGuarded: a failed
// allocation or check frees what the call holds and returns from the call
// with what failed.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_RUNNER_GUARDEDCALL_H
#define CODA_LIB_RUNNER_GUARDEDCALL_H

#include "llvm/ExecutionEngine/Orc/Core.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::coda {

/// The bindings of a JIT-compiled function's malloc, calloc (LLVM may turn
/// a malloc followed by a memset of zeros into calloc), free, puts and
/// abort.
llvm::orc::SymbolMap
getGuardedCallSymbols(llvm::orc::MangleAndInterner interner);

/// What ended a guarded call.
struct CallFailure {
  enum class Kind { Allocation, Check };
  Kind kind = Kind::Allocation;
  /// A failed allocation: the bytes it asked for, and the bytes the call's
  /// live buffers held then.
  uint64_t requested = 0;
  uint64_t held = 0;
  /// A failed runtime check: what it printed.
  std::string message;
};

/// Calls the packed function `function` with `arguments`. If an allocation
/// or a runtime check fails, the call's live buffers are freed and the
/// failure returned; otherwise its allocations that are still live (its
/// results) are the caller's.
std::optional<CallFailure> callGuarded(void (*function)(void **),
                                       void **arguments);

} // namespace mlir::coda

#endif // CODA_LIB_RUNNER_GUARDEDCALL_H
