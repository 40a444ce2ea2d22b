/*===- embed.c - compile and run a coda module from a C program ----------===*\
|*                                                                            *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                   *|
|*                                                                            *|
|* Usage: coda-embed FILE.mlir                                                *|
|*                                                                            *|
|* Compiles FILE through the compiler's C API (coda-c/Compiler.h), prints    *|
|* the diagnostics, PTX and plan sizes, then loads the bundle into the        *|
|* runtime (coda-runtime/coda_runtime.h) from memory and prints each         *|
|* function's kernels. Where a CUDA device is (libcuda.so.1, or              *|
|* CODA_RUNTIME_LIBCUDA as for the runtime), it runs the first function once *|
|* over random inputs, with a boundary callback standing in for attention;   *|
|* elsewhere it says so and stops. Exits 1 when the compilation or a runtime *|
|* call fails. docs/Embedding.md walks through it.                           *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "coda-c/Compiler.h"

#include <stdio.h>
#include <stdlib.h>

static const char *const severityNames[] = {"error", "warning", "note",
                                            "remark"};

/* Reads the file at `path` into `*bytes` (malloc'd); -1 when it cannot. */
static long readFile(const char *path, char **bytes) {
  FILE *file = fopen(path, "rb");
  if (!file)
    return -1;
  long size = fseek(file, 0, SEEK_END) == 0 ? ftell(file) : -1;
  *bytes = size < 0 ? NULL : malloc((size_t)size + 1);
  if (*bytes && (fseek(file, 0, SEEK_SET) != 0 ||
                 fread(*bytes, 1, (size_t)size, file) != (size_t)size))
    size = -1;
  fclose(file);
  return size;
}

/* Prints each diagnostic as "file:line:column: severity: message". */
static void printDiagnostics(const CodaCompileResult *result) {
  for (size_t i = 0; i < codaCompileResultDiagnosticCount(result); ++i) {
    CodaCompileDiagnostic diagnostic;
    codaCompileResultDiagnostic(result, i, &diagnostic);
    printf("%s:%u:%u: %s: %s\n", diagnostic.file, diagnostic.line,
           diagnostic.column, severityNames[diagnostic.severity],
           diagnostic.message);
  }
}

#ifdef CODA_EMBED_RUNTIME
#include "coda-runtime/coda_runtime.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

/* The driver calls the example makes itself: a context and the buffers. */
typedef struct Driver {
  __typeof__(cuInit) *init;
  __typeof__(cuDeviceGetCount) *deviceGetCount;
  __typeof__(cuDeviceGet) *deviceGet;
  __typeof__(cuDevicePrimaryCtxRetain) *primaryCtxRetain;
  __typeof__(cuCtxSetCurrent) *ctxSetCurrent;
  __typeof__(cuCtxSynchronize) *ctxSynchronize;
  __typeof__(cuMemAlloc) *memAlloc;
  __typeof__(cuMemFree) *memFree;
  __typeof__(cuMemcpyHtoD) *memcpyHtoD;
  __typeof__(cuMemsetD8Async) *memsetD8Async;
} Driver;

/* Opens the driver the runtime opens and makes device 0's primary context
   current; 0 when there is no driver or device. */
static int openDevice(Driver *driver) {
  const char *path = getenv("CODA_RUNTIME_LIBCUDA");
  void *library = dlopen(path ? path : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library)
    return 0;
  void **entries = (void **)driver;
  static const char *const names[] = {
      "cuInit",        "cuDeviceGetCount", "cuDeviceGet",
      "cuDevicePrimaryCtxRetain", "cuCtxSetCurrent", "cuCtxSynchronize",
      "cuMemAlloc_v2", "cuMemFree_v2",     "cuMemcpyHtoD_v2",
      "cuMemsetD8Async"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); ++i)
    if (!(entries[i] = dlsym(library, names[i])))
      return 0;
  int count = 0;
  CUdevice device;
  CUcontext context;
  return driver->init(0) == CUDA_SUCCESS &&
         driver->deviceGetCount(&count) == CUDA_SUCCESS && count > 0 &&
         driver->deviceGet(&device, 0) == CUDA_SUCCESS &&
         driver->primaryCtxRetain(&context, device) == CUDA_SUCCESS &&
         driver->ctxSetCurrent(context) == CUDA_SUCCESS;
}

/* The bytes of buffer `index` over `rows` rows. */
static size_t bufferBytes(const CodaSession *session, size_t index,
                          int64_t rows) {
  const char *type = codaSessionBufferType(session, index);
  size_t bytes = strcmp(type, "f32") == 0 ? 4 : 2;
  for (size_t d = 0; d < codaSessionBufferRank(session, index); ++d) {
    int64_t size = codaSessionBufferDim(session, index, d);
    bytes *= (size_t)(size == -1 ? rows : size);
  }
  return bytes;
}

/* What the boundary callback needs. */
typedef struct Boundary {
  const Driver *driver;
  const CodaSession *session;
} Boundary;

/* Stands in for the application's attention: zeroes the step's results on
   its stream. Any other op fails the launch. */
static int runBoundary(void *userData, const CodaBoundary *boundary) {
  const Boundary *context = (const Boundary *)userData;
  printf("boundary step %zu: %s\n", boundary->step, boundary->op);
  if (strcmp(boundary->op, "coda.attention") != 0)
    return 1;
  for (size_t i = 0; i < boundary->numResults; ++i) {
    size_t index;
    if (codaSessionFindBuffer(context->session, boundary->resultNames[i],
                              &index) != CodaSuccess ||
        context->driver->memsetD8Async(
            boundary->results[i], 0,
            bufferBytes(context->session, index, boundary->rows),
            boundary->stream) != CUDA_SUCCESS)
      return 1;
  }
  return 0;
}

/* A random number in [-1, 1). */
static float randomValue(void) {
  return (float)rand() / ((float)RAND_MAX / 2) - 1;
}

/* The f16 of `value`, truncated, flushed to zero below 2^-14. */
static uint16_t toHalf(float value) {
  uint32_t bits;
  memcpy(&bits, &value, sizeof(bits));
  uint16_t sign = (uint16_t)(bits >> 16 & 0x8000);
  int exponent = (int)(bits >> 23 & 0xff) - 127 + 15;
  if (exponent <= 0)
    return sign;
  return (uint16_t)(sign | exponent << 10 | (bits >> 13 & 0x3ff));
}

/* Fills the `bytes` of `data` with random values of buffer `index`'s type. */
static void fillRandom(const CodaSession *session, size_t index, void *data,
                       size_t bytes) {
  const char *type = codaSessionBufferType(session, index);
  if (strcmp(type, "f32") == 0) {
    for (size_t i = 0; i < bytes / 4; ++i)
      ((float *)data)[i] = randomValue();
    return;
  }
  for (size_t i = 0; i < bytes / 2; ++i) {
    float value = randomValue();
    uint32_t bits;
    memcpy(&bits, &value, sizeof(bits));
    ((uint16_t *)data)[i] =
        strcmp(type, "bf16") == 0 ? (uint16_t)(bits >> 16) : toHalf(value);
  }
}

/* Binds every argument and result of `session` to device memory (the
   arguments random) and launches it over `rows` rows. */
static CodaStatus launchOnce(const Driver *driver, CodaSession *session,
                             int64_t rows) {
  size_t count = codaSessionBufferCount(session);
  CUdeviceptr *memory = calloc(count, sizeof(CUdeviceptr));
  CodaStatus status = CodaSuccess;
  for (size_t i = 0; i < count && status == CodaSuccess; ++i) {
    CodaBufferRole role = codaSessionBufferRole(session, i);
    if (role == CodaBufferWorkspace)
      continue;
    size_t bytes = bufferBytes(session, i, rows);
    void *host = malloc(bytes);
    fillRandom(session, i, host, bytes);
    if (driver->memAlloc(&memory[i], bytes) != CUDA_SUCCESS ||
        (role == CodaBufferArgument &&
         driver->memcpyHtoD(memory[i], host, bytes) != CUDA_SUCCESS))
      status = CodaErrorCuda;
    else
      status = codaSessionBind(session, codaSessionBufferName(session, i),
                               memory[i]);
    free(host);
  }
  if (status == CodaSuccess)
    status = codaSessionLaunch(session, rows, NULL);
  if (status == CodaSuccess && driver->ctxSynchronize() != CUDA_SUCCESS)
    status = CodaErrorCuda;
  for (size_t i = 0; i < count; ++i)
    if (memory[i])
      driver->memFree(memory[i]);
  free(memory);
  return status;
}

/* Prints each function's kernels and buffers. */
static CodaStatus printFunctions(CodaBundle *bundle) {
  for (size_t f = 0; f < codaBundleFunctionCount(bundle); ++f) {
    const char *name = codaBundleFunctionName(bundle, f);
    CodaSession *session;
    CodaStatus status = codaSessionCreate(bundle, name, &session);
    if (status != CodaSuccess)
      return status;
    printf("function %s: %zu kernels, %zu buffers\n", name,
           codaSessionKernelCount(session), codaSessionBufferCount(session));
    codaSessionDestroy(session);
  }
  return CodaSuccess;
}

/* Runs the bundle's first function once over `rows` rows. */
static CodaStatus runFirstFunction(const Driver *driver, CodaBundle *bundle,
                                   int64_t rows) {
  const char *name = codaBundleFunctionName(bundle, 0);
  CodaSession *session;
  CodaStatus status = codaSessionCreate(bundle, name, &session);
  if (status != CodaSuccess)
    return status;
  Boundary boundary = {driver, session};
  codaSessionSetBoundaryCallback(session, runBoundary, &boundary);
  status = launchOnce(driver, session, rows);
  if (status == CodaSuccess)
    printf("ran %s over %" PRId64 " rows of random inputs\n", name, rows);
  codaSessionDestroy(session);
  return status;
}

/* Loads the bundle from memory, prints its functions, and runs the first
   one where a device is. */
static int run(const char *ptx, size_t ptxSize, const char *plan,
               size_t planSize) {
  CodaBundle *bundle = NULL;
  CodaStatus status =
      codaBundleLoadFromMemory(ptx, ptxSize, plan, planSize, &bundle);
  if (status == CodaSuccess)
    status = printFunctions(bundle);
  Driver driver;
  if (status == CodaSuccess && !openDevice(&driver))
    printf("no CUDA device: compiled only\n");
  else if (status == CodaSuccess)
    status = runFirstFunction(&driver, bundle, 128);
  if (status != CodaSuccess)
    printf("runtime error: %s: %s\n", codaStatusName(status),
           codaGetLastError());
  codaBundleDestroy(bundle);
  return status == CodaSuccess ? 0 : 1;
}
#else
static int run(const char *ptx, size_t ptxSize, const char *plan,
               size_t planSize) {
  (void)ptx, (void)ptxSize, (void)plan, (void)planSize;
  printf("no CUDA runtime: compiled only\n");
  return 0;
}
#endif

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: coda-embed FILE.mlir\n");
    return 2;
  }
  char *text;
  long length = readFile(argv[1], &text);
  if (length < 0) {
    fprintf(stderr, "coda-embed: cannot read %s\n", argv[1]);
    return 2;
  }
  CodaCompileOptions options = {0};
  options.bufferName = argv[1];
  CodaCompileResult *result;
  CodaCompileStatus status = codaCompile(text, (size_t)length, &options,
                                         &result);
  free(text);
  printDiagnostics(result);
  size_t ptxSize, planSize;
  const char *ptx = codaCompileResultPTX(result, &ptxSize);
  const char *plan = codaCompileResultPlan(result, &planSize);
  printf("%s: %s, %zu diagnostics, %zu bytes of PTX, %zu bytes of plan\n",
         argv[1], status == CodaCompileSuccess ? "compiled" : "failed",
         codaCompileResultDiagnosticCount(result), ptxSize, planSize);
  int exitCode = status == CodaCompileSuccess
                     ? run(ptx, ptxSize, plan, planSize)
                     : 1;
  codaCompileResultDestroy(result);
  return exitCode;
}
