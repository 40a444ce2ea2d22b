/*===- coda_runtime.h - the CODA runtime's C API ------------------*- C -*-===*\
|*                                                                            *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                   *|
|*                                                                            *|
|* Runs what `coda-translate --coda-to-ptx` (or `--coda-to-cubin`) compiled:  *|
|* a kernel image (PTX or cubin) and the launch plan written beside it.       *|
|*                                                                            *|
|*   CodaBundle   the image and its parsed plan; the CUDA module is loaded    *|
|*                on the first launch, into the stream's context.             *|
|*   CodaSession  one function of a bundle: the caller's buffers, the         *|
|*                workspace the plan owns, cached tensor maps.                *|
|*                                                                            *|
|* Every function that can fail returns a CodaStatus; codaGetLastError()      *|
|* then says what failed, naming the file, buffer, kernel or CUDA call (with  *|
|* the CUDA error's name and string). libcuda.so.1 is opened on first use,    *|
|* so loading, querying and binding work on machines without a driver.        *|
|*                                                                            *|
|* Nothing here is thread-safe per handle: a session's launches share its     *|
|* workspace, so they must be ordered (one stream, or synchronized).          *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef CODA_RUNTIME_CODA_RUNTIME_H
#define CODA_RUNTIME_CODA_RUNTIME_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32)
#define CODA_RUNTIME_EXPORT __declspec(dllexport)
#else
#define CODA_RUNTIME_EXPORT __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*===----------------------------------------------------------------------===
 * Status
 *===----------------------------------------------------------------------===*/

/** What a call did. The values are stable. */
typedef enum CodaStatus {
  CodaSuccess = 0,
  /** A null handle or pointer, an index out of range. */
  CodaErrorInvalidArgument = 1,
  /** A file could not be read. */
  CodaErrorFile = 2,
  /** The launch plan is not JSON, or lacks or mistypes a field. */
  CodaErrorInvalidPlan = 3,
  /** The kernel image is neither PTX nor a cubin, or is for another target
      than its plan. */
  CodaErrorInvalidImage = 4,
  /** The plan has no function of that name (or several, and none named). */
  CodaErrorUnknownFunction = 5,
  /** The plan has no buffer of that name. */
  CodaErrorUnknownBuffer = 6,
  /** A buffer's address is not aligned as its kernels need. */
  CodaErrorMisalignedBuffer = 7,
  /** An argument or result buffer was not bound before a launch. */
  CodaErrorUnboundBuffer = 8,
  /** The plan cannot run over that many rows. */
  CodaErrorInvalidRows = 9,
  /** The plan has a boundary step and no callback was registered. */
  CodaErrorNoBoundaryCallback = 10,
  /** A boundary callback returned nonzero. */
  CodaErrorBoundaryFailed = 11,
  /** libcuda.so.1 could not be opened, or lacks an entry point. */
  CodaErrorNoDriver = 12,
  /** The driver found no CUDA device. */
  CodaErrorNoDevice = 13,
  /** No CUDA context is current and the stream names none, or the stream's
      context is not the one the session or bundle was set up in. */
  CodaErrorContext = 14,
  /** The device cannot run the image's target (e.g. sm_90a off a 9.0 GPU). */
  CodaErrorArchMismatch = 15,
  /** A kernel of the plan is not in the image. */
  CodaErrorUnknownKernel = 16,
  /** A device allocation failed. */
  CodaErrorOutOfMemory = 17,
  /** Any other CUDA driver call failed. */
  CodaErrorCuda = 18,
} CodaStatus;

/** The status's name, e.g. "CodaErrorNoDriver". */
CODA_RUNTIME_EXPORT const char *codaStatusName(CodaStatus status);

/** The message of the last call on this thread that returned a status: ""
    when it succeeded. Valid until the next such call on this thread. */
CODA_RUNTIME_EXPORT const char *codaGetLastError(void);

/*===----------------------------------------------------------------------===
 * Bundles
 *===----------------------------------------------------------------------===*/

/** A kernel image and its launch plan. */
typedef struct CodaBundle CodaBundle;

/** Reads the kernel image at `imagePath` (PTX text or an ELF cubin) and the
    launch plan at `planPath`, and checks that they agree: the plan's target
    is the PTX's, every kernel of the plan is an entry of the PTX. Needs no
    driver. On success `*bundle` is set; destroy it with codaBundleDestroy. */
CODA_RUNTIME_EXPORT CodaStatus codaBundleLoad(const char *imagePath,
                                              const char *planPath,
                                              CodaBundle **bundle);

/** As codaBundleLoad, from memory: `imageSize` bytes of image and
    `planSize` bytes of plan JSON, both copied. */
CODA_RUNTIME_EXPORT CodaStatus codaBundleLoadFromMemory(const void *image,
                                                        size_t imageSize,
                                                        const char *plan,
                                                        size_t planSize,
                                                        CodaBundle **bundle);

/** Releases the caller's handle. The module and the plan live on while a
    session of the bundle does. Null is ignored. */
CODA_RUNTIME_EXPORT void codaBundleDestroy(CodaBundle *bundle);

/** The plan's target, e.g. "sm_90a"; null for a null bundle. */
CODA_RUNTIME_EXPORT const char *codaBundleTarget(const CodaBundle *bundle);

/** The number of functions in the plan. */
CODA_RUNTIME_EXPORT size_t codaBundleFunctionCount(const CodaBundle *bundle);

/** The name of function `index`; null when out of range. */
CODA_RUNTIME_EXPORT const char *codaBundleFunctionName(const CodaBundle *bundle,
                                                       size_t index);

/*===----------------------------------------------------------------------===
 * Sessions
 *===----------------------------------------------------------------------===*/

/** One function of a bundle, ready to be bound and launched. */
typedef struct CodaSession CodaSession;

/** Who provides a buffer's memory. */
typedef enum CodaBufferRole {
  /** An argument of the function: bound by the caller. */
  CodaBufferArgument = 0,
  /** A result of the function: bound by the caller. */
  CodaBufferResult = 1,
  /** An intermediate: taken from the session's workspace unless bound. */
  CodaBufferWorkspace = 2,
} CodaBufferRole;

/** Starts a session of the function named `function`; null names the
    plan's only function. Needs no driver. Destroy it with
    codaSessionDestroy. */
CODA_RUNTIME_EXPORT CodaStatus codaSessionCreate(CodaBundle *bundle,
                                                 const char *function,
                                                 CodaSession **session);

/** Frees the session's workspace and tensor maps; its launches must have
    completed. Null is ignored. */
CODA_RUNTIME_EXPORT void codaSessionDestroy(CodaSession *session);

/** The number of buffers of the session's function. */
CODA_RUNTIME_EXPORT size_t codaSessionBufferCount(const CodaSession *session);

/** Sets `*index` to the index of the buffer named `name`. */
CODA_RUNTIME_EXPORT CodaStatus codaSessionFindBuffer(const CodaSession *session,
                                                     const char *name,
                                                     size_t *index);

/** Buffer `index`'s name; null when out of range. */
CODA_RUNTIME_EXPORT const char *
codaSessionBufferName(const CodaSession *session, size_t index);

/** Buffer `index`'s element type: "bf16", "f16", "f32", "i32" or "i64";
    null when out of range. */
CODA_RUNTIME_EXPORT const char *
codaSessionBufferType(const CodaSession *session, size_t index);

/** Buffer `index`'s role; CodaBufferWorkspace when out of range. */
CODA_RUNTIME_EXPORT CodaBufferRole
codaSessionBufferRole(const CodaSession *session, size_t index);

/** Buffer `index`'s rank; 0 when out of range. */
CODA_RUNTIME_EXPORT size_t codaSessionBufferRank(const CodaSession *session,
                                                 size_t index);

/** Dimension `dim` of buffer `index`: -1 for the row count M, -B for
    ceil(M / B) (per-block partials of a sum over rows); 0 when out of
    range. Only the first dimension can be negative. */
CODA_RUNTIME_EXPORT int64_t codaSessionBufferDim(const CodaSession *session,
                                                 size_t index, size_t dim);

/** The buffer whose memory buffer `index` is (an alias step: a reshape is a
    view of its operand), or null when it is its own. */
CODA_RUNTIME_EXPORT const char *
codaSessionBufferViewOf(const CodaSession *session, size_t index);

/** The number of results of the session's function. */
CODA_RUNTIME_EXPORT size_t codaSessionResultCount(const CodaSession *session);

/** The name of the buffer holding result `index`, in the function's
    result order: a result buffer, or an argument the function returns as
    it is; a buffer may hold several results. Null when out of range. */
CODA_RUNTIME_EXPORT const char *
codaSessionResultName(const CodaSession *session, size_t index);

/** The row count every launch of the function must use when it has no
    dynamic row count (no -1 in its plan) and launches kernels, or when a
    static shape fixes it (the plan's "fixed_rows"); 0 when any row count
    of at least 1 will do, or for a null session. */
CODA_RUNTIME_EXPORT int64_t codaSessionStaticRows(const CodaSession *session);

/** The number of kernels the function launches (its alias and boundary
    steps not counted). */
CODA_RUNTIME_EXPORT size_t codaSessionKernelCount(const CodaSession *session);

/** Sets `*bytes` to the workspace the function needs for `rows` rows. */
CODA_RUNTIME_EXPORT CodaStatus codaSessionWorkspaceBytes(
    const CodaSession *session, int64_t rows, size_t *bytes);

/** Binds the buffer named `name` to device memory at `address`, replacing
    an earlier binding. A view and the buffer it views are one memory:
    binding either binds both. A workspace buffer may be bound too (to read
    an intermediate); it then no longer comes from the workspace. The
    address must be 16-byte aligned when a kernel reads the buffer through
    a tensor map, else aligned to its element size. The binding stays until
    replaced or cleared. */
CODA_RUNTIME_EXPORT CodaStatus codaSessionBind(CodaSession *session,
                                               const char *name,
                                               CUdeviceptr address);

/** Clears every binding of the session. */
CODA_RUNTIME_EXPORT void codaSessionUnbindAll(CodaSession *session);

/** A boundary step (an op no kernel runs, e.g. coda.attention) as its
    callback sees it. The arrays hold `numOperands` and `numResults`
    entries, in the plan's order; an operand may repeat. */
typedef struct CodaBoundary {
  /** The op, e.g. "coda.attention". */
  const char *op;
  /** The step's position among the function's steps (kernels, alias and
      boundary steps), from 0. */
  size_t step;
  /** The row count M of the launch. */
  int64_t rows;
  /** The launch's stream: enqueue the op's work on it. */
  CUstream stream;
  size_t numOperands;
  const char *const *operandNames;
  const CUdeviceptr *operands;
  size_t numResults;
  const char *const *resultNames;
  const CUdeviceptr *results;
} CodaBoundary;

/** Runs a boundary step: enqueues its work on `boundary->stream`, reading
    the operands and writing the results. Returns 0 on success; anything
    else stops the launch with CodaErrorBoundaryFailed. */
typedef int (*CodaBoundaryCallback)(void *userData,
                                    const CodaBoundary *boundary);

/** Registers the callback that runs the function's boundary steps, with
    `userData` passed through; null unregisters. A launch of a function
    with boundary steps needs one. */
CODA_RUNTIME_EXPORT void
codaSessionSetBoundaryCallback(CodaSession *session,
                               CodaBoundaryCallback callback, void *userData);

/** Prepares launches of up to `rows` rows on `stream` ahead of time: loads
    the module into the stream's context (checking the device's
    architecture and that every kernel is there), allocates the workspace
    and, once per session, allocates and zeroes the kernels' scratch (split
    weight gradients). A launch does this itself when needed; reserve first
    to keep allocations out of a CUDA graph capture. */
CODA_RUNTIME_EXPORT CodaStatus codaSessionReserve(CodaSession *session,
                                                  int64_t rows,
                                                  CUstream stream);

/** Launches the function over `rows` rows on `stream` (0: the legacy
    default stream of the current context): each kernel in order, each
    boundary step through the callback. The row count must be at least 1
    and fit in an int32, and equal the plan's row count when the plan has
    no -1. Tensor maps are encoded once per buffer address and row count
    and kept in device memory for later launches. Returns once the work is
    enqueued. */
CODA_RUNTIME_EXPORT CodaStatus codaSessionLaunch(CodaSession *session,
                                                 int64_t rows, CUstream stream);

/*===----------------------------------------------------------------------===
 * Contexts, device memory, streams and events
 *
 * Thin wrappers of the driver for callers that have no CUDA library of
 * their own to allocate and copy with (coda-run): they open the driver as
 * a launch does, report failures as statuses, and work in the calling
 * thread's current context (CodaErrorContext when there is none).
 *===----------------------------------------------------------------------===*/

/** Retains the primary context of device `device` (an ordinal, from 0)
    and makes it current on this thread; `*context` is set to it. Pair
    with codaContextRelease. */
CODA_RUNTIME_EXPORT CodaStatus codaContextRetain(int device,
                                                 CUcontext *context);

/** Releases what codaContextRetain(device) retained. */
CODA_RUNTIME_EXPORT CodaStatus codaContextRelease(int device);

/** Allocates `bytes` (at least 1) of device memory; `*address` is set to
    it, aligned to 256 bytes. Free it with codaMemoryFree. */
CODA_RUNTIME_EXPORT CodaStatus codaMemoryAllocate(size_t bytes,
                                                  CUdeviceptr *address);

/** Frees memory from codaMemoryAllocate; 0 is ignored. */
CODA_RUNTIME_EXPORT CodaStatus codaMemoryFree(CUdeviceptr address);

/** Enqueues a copy of `bytes` from host memory at `source` to the device
    at `destination` on `stream`. `source` must stay valid until the stream
    is synchronized. */
CODA_RUNTIME_EXPORT CodaStatus codaMemoryCopyToDevice(CUdeviceptr destination,
                                                      const void *source,
                                                      size_t bytes,
                                                      CUstream stream);

/** Enqueues a copy of `bytes` from the device at `source` to host memory
    at `destination` on `stream`; the bytes are there once the stream is
    synchronized. */
CODA_RUNTIME_EXPORT CodaStatus codaMemoryCopyToHost(void *destination,
                                                    CUdeviceptr source,
                                                    size_t bytes,
                                                    CUstream stream);

/** Waits until the work enqueued on `stream` has finished. */
CODA_RUNTIME_EXPORT CodaStatus codaStreamSynchronize(CUstream stream);

/** Creates an event that records time (CU_EVENT_DEFAULT). Destroy it with
    codaEventDestroy. */
CODA_RUNTIME_EXPORT CodaStatus codaEventCreate(CUevent *event);

/** Destroys an event from codaEventCreate; null is ignored. */
CODA_RUNTIME_EXPORT CodaStatus codaEventDestroy(CUevent event);

/** Enqueues `event` on `stream`: it completes when the work before it
    does. */
CODA_RUNTIME_EXPORT CodaStatus codaEventRecord(CUevent event, CUstream stream);

/** Waits for `end` and sets `*milliseconds` to the time between `start`
    and `end`, both recorded. */
CODA_RUNTIME_EXPORT CodaStatus codaEventElapsedMs(CUevent start, CUevent end,
                                                  float *milliseconds);

#ifdef __cplusplus
}
#endif

#endif /* CODA_RUNTIME_CODA_RUNTIME_H */
