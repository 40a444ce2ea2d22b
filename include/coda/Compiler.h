//===- Compiler.h - compile coda modules inside another program -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The embedding API of libcoda_compiler.so (docs/Embedding.md): MLIR text in,
// the bundle the runtime loads out (PTX or a cubin, and the launch plan),
// with every diagnostic returned as data rather than printed. Each call
// makes its own MLIRContext, so calls on several threads at once are
// independent.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_COMPILER_H
#define CODA_COMPILER_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace mlir::coda {

/// The kernel image a compilation produces beside the PTX.
enum class CompileTarget {
  /// PTX text only.
  PTX,
  /// The PTX and the cubin ptxas makes of it (ptxas from CUDA_ROOT, default
  /// /usr/local/cuda; without it the compilation fails with a diagnostic).
  Cubin,
};

/// The options of `coda-translate --coda-to-ptx` and of the stages it runs
/// (coda-to-ptx-pipeline, docs/Pipeline.md). A module already at the kernel
/// level keeps the stages and schedule it was generated with.
struct CompileOptions {
  CompileTarget target = CompileTarget::PTX;
  /// Shared-memory ring slots of the GEMM mainloop: 0 for as many as fit,
  /// else at least 2.
  unsigned stages = 0;
  /// "auto", "cooperative", "pingpong" or "epilogue-warpgroup"; empty for
  /// the pipeline's default ("auto": chosen per GEMM).
  std::string schedule;
  /// The name diagnostics give the module text, as a file name.
  std::string bufferName = "<input>";
};

/// One diagnostic of a compilation. `file` is empty, and `line` and
/// `column` 0, when it has no source location.
struct CompileDiagnostic {
  enum class Severity { Error, Warning, Note, Remark };
  Severity severity = Severity::Error;
  std::string message;
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
};

/// What `compileToBundle` made of a module.
struct CompileResult {
  /// Whether the compilation succeeded; when it did not, `diagnostics`
  /// holds at least one error.
  bool succeeded = false;
  /// The PTX of every kernel module, as coda-translate writes it; empty
  /// unless the compilation succeeded, as are `cubin` and `plan`.
  std::string ptx;
  /// The cubin, for CompileTarget::Cubin; empty otherwise.
  std::string cubin;
  /// The launch plan as JSON (docs/Pipeline.md, "The launch plan").
  std::string plan;
  /// Every diagnostic, in the order reported; a diagnostic's notes follow
  /// it as Note entries.
  std::vector<CompileDiagnostic> diagnostics;
};

/// Parses `moduleText` (a builtin.module, or ops that make one implicitly,
/// at the graph, epilogue-program or kernel level) and compiles it as
/// `coda-translate --coda-to-ptx` (or `--coda-to-cubin`) does, in a context
/// of its own. Nothing is printed.
CompileResult compileToBundle(llvm::StringRef moduleText,
                              const CompileOptions &options = {});

} // namespace mlir::coda

#endif // CODA_COMPILER_H
