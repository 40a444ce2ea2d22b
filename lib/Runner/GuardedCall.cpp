//===- GuardedCall.cpp - a compiled function's failures as errors ---------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A failure leaves the compiled code by longjmp to callGuarded. That is
// sound here: the frames it skips are the compiled function's, which hold
// no cleanups, and the binding's, which holds no object; the call's state,
// which changes between setjmp and longjmp, lives on the heap, not in the
// frame setjmp returns to.
//
//===----------------------------------------------------------------------===//

#include "GuardedCall.h"

#include "llvm/ADT/DenseMap.h"

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <memory>

using namespace mlir;
using namespace mlir::coda;

namespace {
/// The state of one guarded call.
struct GuardedCall {
  std::jmp_buf onFailure;
  /// The call's live buffers and their bytes.
  llvm::DenseMap<void *, uint64_t> live;
  uint64_t held = 0;
  CallFailure failure;
};
} // namespace

/// The guarded call in progress on this thread (calls do not nest: the
/// compiled functions call no other).
static thread_local GuardedCall *current = nullptr;

[[noreturn]] static void leave(GuardedCall *call, CallFailure::Kind kind) {
  call->failure.kind = kind;
  std::longjmp(call->onFailure, 1);
}

/// Records `pointer` of `bytes` in the current call, or leaves the call
/// where it is null (a zero-byte request may return null and is not a
/// failure). Outside a guarded call it returns `pointer` as it is.
static void *record(void *pointer, uint64_t bytes) {
  GuardedCall *call = current;
  if (!call)
    return pointer;
  if (!pointer && bytes != 0) {
    call->failure.requested = bytes;
    call->failure.held = call->held;
    leave(call, CallFailure::Kind::Allocation);
  }
  if (pointer) {
    call->live[pointer] = bytes;
    call->held += bytes;
  }
  return pointer;
}

static void *guardedMalloc(size_t bytes) {
  return record(std::malloc(bytes), bytes);
}

static void *guardedCalloc(size_t count, size_t size) {
  // An overflowing product is a failed request of more than 2^64 bytes.
  size_t bytes;
  if (__builtin_mul_overflow(count, size, &bytes))
    return record(nullptr, UINT64_MAX);
  return record(std::calloc(count, size), bytes);
}

static void guardedFree(void *pointer) {
  if (GuardedCall *call = current) {
    auto it = call->live.find(pointer);
    if (it != call->live.end()) {
      call->held -= it->second;
      call->live.erase(it);
    }
  }
  std::free(pointer);
}

/// A failing runtime check prints its message, then aborts. Outside a
/// guarded call (compiled code the engine runs on its own, such as global
/// constructors) these are the C library's.
static int guardedPuts(const char *text) {
  if (!current)
    return std::puts(text);
  current->failure.message += text;
  return 0;
}

static void guardedAbort() {
  if (!current)
    std::abort();
  leave(current, CallFailure::Kind::Check);
}

llvm::orc::SymbolMap
mlir::coda::getGuardedCallSymbols(llvm::orc::MangleAndInterner interner) {
  llvm::orc::SymbolMap symbols;
  auto bind = [&](llvm::StringRef name, auto *function) {
    symbols[interner(name)] = {llvm::orc::ExecutorAddr::fromPtr(function),
                               llvm::JITSymbolFlags::Exported};
  };
  bind("malloc", &guardedMalloc);
  bind("calloc", &guardedCalloc);
  bind("free", &guardedFree);
  bind("puts", &guardedPuts);
  bind("abort", &guardedAbort);
  return symbols;
}

std::optional<CallFailure> mlir::coda::callGuarded(void (*function)(void **),
                                                   void **arguments) {
  auto call = std::make_unique<GuardedCall>();
  current = call.get();
  if (setjmp(call->onFailure) != 0) {
    current = nullptr;
    for (auto [pointer, bytes] : call->live)
      std::free(pointer);
    return std::move(call->failure);
  }
  function(arguments);
  current = nullptr;
  return std::nullopt;
}
