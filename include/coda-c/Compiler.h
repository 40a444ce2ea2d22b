/*===- Compiler.h - the CODA compiler's C API ---------------------*- C -*-===*\
|*                                                                            *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                   *|
|*                                                                            *|
|* Compiles MLIR text to what the runtime (coda-runtime/coda_runtime.h)       *|
|* loads, as `coda-translate --coda-to-ptx` does, inside the calling          *|
|* program: libcoda_compiler.so, over the C++ API of coda/Compiler.h          *|
|* (docs/Embedding.md).                                                       *|
|*                                                                            *|
|*   codaCompile            text and options in; a CodaCompileResult out,     *|
|*                          holding the PTX (and cubin), the launch plan and  *|
|*                          every diagnostic as data. Nothing is printed.     *|
|*                                                                            *|
|* Each call compiles in an MLIRContext of its own, so calls on several       *|
|* threads at once are independent. A result is immutable: its accessors may  *|
|* be called from any thread.                                                 *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CODA_C_COMPILER_H
#define CODA_C_COMPILER_H

#include <stddef.h>

#if defined(_WIN32)
#define CODA_COMPILER_EXPORT __declspec(dllexport)
#else
#define CODA_COMPILER_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** What codaCompile did. The values are stable. */
typedef enum CodaCompileStatus {
  CodaCompileSuccess = 0,
  /** A null text (of nonzero length) or result pointer, or an unknown
      target; no result is made. */
  CodaCompileErrorInvalidArgument = 1,
  /** The module did not parse or compile: the result's diagnostics say
      why, and it holds no PTX, cubin or plan. */
  CodaCompileErrorFailed = 2,
} CodaCompileStatus;

/** The kernel image made beside the PTX. */
typedef enum CodaCompileTarget {
  /** PTX text only. */
  CodaCompileTargetPTX = 0,
  /** The PTX and its cubin, from ptxas under CUDA_ROOT (default
      /usr/local/cuda). */
  CodaCompileTargetCubin = 1,
} CodaCompileTarget;

/** The options of `coda-translate --coda-to-ptx` and of the pipeline it
    runs (docs/Pipeline.md). A zeroed struct, or a null pointer, gives the
    defaults. */
typedef struct CodaCompileOptions {
  CodaCompileTarget target;
  /** Shared-memory ring slots of the GEMM mainloop: 0 for as many as fit,
      else at least 2. */
  unsigned stages;
  /** "auto", "cooperative", "pingpong" or "epilogue-warpgroup"; null for
      the default ("auto": chosen per GEMM). */
  const char *schedule;
  /** The file name diagnostics give the text; null for "<input>". */
  const char *bufferName;
} CodaCompileOptions;

/** How serious a diagnostic is. */
typedef enum CodaDiagnosticSeverity {
  CodaDiagnosticError = 0,
  CodaDiagnosticWarning = 1,
  CodaDiagnosticNote = 2,
  CodaDiagnosticRemark = 3,
} CodaDiagnosticSeverity;

/** One diagnostic. The strings live as long as the result. `file` is ""
    and `line` and `column` are 0 when it has no source location. */
typedef struct CodaCompileDiagnostic {
  CodaDiagnosticSeverity severity;
  const char *message;
  const char *file;
  unsigned line;
  unsigned column;
} CodaCompileDiagnostic;

/** What a compilation made and said. */
typedef struct CodaCompileResult CodaCompileResult;

/** Compiles the `length` bytes of MLIR at `text` with `options` (null: the
    defaults). Sets `*result` unless the status is
    CodaCompileErrorInvalidArgument (then it is set to null); destroy it
    with codaCompileResultDestroy. */
CODA_COMPILER_EXPORT CodaCompileStatus
codaCompile(const char *text, size_t length, const CodaCompileOptions *options,
            CodaCompileResult **result);

/** Releases `result` and everything its accessors returned. Null is
    ignored. */
CODA_COMPILER_EXPORT void codaCompileResultDestroy(CodaCompileResult *result);

/** The PTX text, NUL-terminated, with its length in `*length` (when not
    null); "" after a failure. */
CODA_COMPILER_EXPORT const char *
codaCompileResultPTX(const CodaCompileResult *result, size_t *length);

/** The cubin's bytes and their number in `*size` (when not null); null
    unless CodaCompileTargetCubin was asked for and succeeded. */
CODA_COMPILER_EXPORT const void *
codaCompileResultCubin(const CodaCompileResult *result, size_t *size);

/** The launch plan as JSON, NUL-terminated, with its length in `*length`
    (when not null); "" after a failure. */
CODA_COMPILER_EXPORT const char *
codaCompileResultPlan(const CodaCompileResult *result, size_t *length);

/** The number of diagnostics, a diagnostic's notes counted after it. */
CODA_COMPILER_EXPORT size_t
codaCompileResultDiagnosticCount(const CodaCompileResult *result);

/** Sets `*diagnostic` to diagnostic `index`, in the order reported; returns
    CodaCompileErrorInvalidArgument for a null pointer or an index out of
    range. */
CODA_COMPILER_EXPORT CodaCompileStatus
codaCompileResultDiagnostic(const CodaCompileResult *result, size_t index,
                            CodaCompileDiagnostic *diagnostic);

#ifdef __cplusplus
}
#endif

#endif /* CODA_C_COMPILER_H */
