/*===- coda-runtime-check.c - drives the runtime's C API ------------------===*\
|*                                                                            *|
|* SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception                   *|
|*                                                                            *|
|* Loads a bundle and runs the actions named on the command line through     *|
|* the C API, in order, printing what each did; the lit tests of             *|
|* test/Runtime are written against it. The first failure prints             *|
|* "error: <status>: <message>" to stderr and exits with 1.                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "coda-runtime/coda_runtime.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const usage =
    "usage: coda-runtime-check [--memory] IMAGE PLAN [--function NAME] "
    "[ACTION...]\n"
    "\n"
    "--memory loads the bundle from the files' bytes rather than their paths.\n"
    "\n"
    "Actions, run in order (none: --summary):\n"
    "  --summary             the plan's functions and the session's buffers\n"
    "  --workspace M         the workspace bytes for M rows\n"
    "  --bind NAME=ADDRESS   bind a buffer\n"
    "  --bind-all            bind each argument and result buffer, the i-th\n"
    "                        at (i + 1) << 24\n"
    "  --unbind-all          clear the bindings\n"
    "  --boundary ok|fail    register a callback that prints each boundary\n"
    "                        step and succeeds or fails\n"
    "  --reserve M           prepare launches of up to M rows\n"
    "  --launch M            launch over M rows on the default stream\n"
    "  --results             the function's result buffers and row count\n"
    "  --retain D            retain device D's primary context, make it\n"
    "                        current\n"
    "  --release D           release it\n"
    "  --round-trip BYTES    allocate BYTES of device memory, copy a pattern\n"
    "                        there and back, free it\n"
    "  --time-launch M       launch over M rows between two events\n"
    "  --null-arguments      call each entry point that takes pointers with\n"
    "                        a required one null, printing what it returns\n";

/* Prints the last error of `status` and exits, unless it is success. */
static void check(CodaStatus status) {
  if (status == CodaSuccess)
    return;
  fflush(stdout);
  fprintf(stderr, "error: %s: %s\n", codaStatusName(status),
          codaGetLastError());
  exit(1);
}

static void usageError(const char *message, const char *argument) {
  fflush(stdout);
  fprintf(stderr, "error: %s%s\n\n%s", message, argument, usage);
  exit(2);
}

static int64_t parseRows(const char *text) {
  char *end;
  long long rows = strtoll(text, &end, 10);
  if (*text == '\0' || *end != '\0')
    usageError("not a row count: ", text);
  return (int64_t)rows;
}

static const char *const roleNames[] = {"argument", "result", "workspace"};

static void printSummary(const CodaBundle *bundle, const CodaSession *session) {
  size_t functions = codaBundleFunctionCount(bundle);
  printf("target %s, %zu function%s:", codaBundleTarget(bundle), functions,
         functions == 1 ? "" : "s");
  for (size_t i = 0; i < functions; ++i)
    printf(" %s", codaBundleFunctionName(bundle, i));
  size_t buffers = codaSessionBufferCount(session);
  printf("\nbuffers: %zu, kernels: %zu\n", buffers,
         codaSessionKernelCount(session));
  for (size_t i = 0; i < buffers; ++i) {
    printf("  %s %s %s [", codaSessionBufferName(session, i),
           roleNames[codaSessionBufferRole(session, i)],
           codaSessionBufferType(session, i));
    for (size_t d = 0; d < codaSessionBufferRank(session, i); ++d) {
      int64_t size = codaSessionBufferDim(session, i, d);
      if (d != 0)
        printf(", ");
      if (size == -1)
        printf("M");
      else if (size < -1)
        printf("ceil(M / %" PRId64 ")", -size);
      else
        printf("%" PRId64, size);
    }
    printf("]");
    if (codaSessionBufferViewOf(session, i))
      printf(" view of %s", codaSessionBufferViewOf(session, i));
    printf("\n");
  }
}

static void bind(CodaSession *session, const char *name, CUdeviceptr address) {
  check(codaSessionBind(session, name, address));
  printf("bound %s at 0x%llx\n", name, (unsigned long long)address);
}

static void bindArgument(CodaSession *session, const char *text) {
  const char *equals = strchr(text, '=');
  if (!equals)
    usageError("expected NAME=ADDRESS: ", text);
  char name[256];
  size_t length = (size_t)(equals - text);
  if (length >= sizeof(name))
    usageError("buffer name too long: ", text);
  memcpy(name, text, length);
  name[length] = '\0';
  char *end;
  unsigned long long address = strtoull(equals + 1, &end, 0);
  if (equals[1] == '\0' || *end != '\0')
    usageError("not an address: ", equals + 1);
  bind(session, name, (CUdeviceptr)address);
}

static void bindAll(CodaSession *session) {
  for (size_t i = 0; i < codaSessionBufferCount(session); ++i)
    if (codaSessionBufferRole(session, i) != CodaBufferWorkspace)
      bind(session, codaSessionBufferName(session, i),
           (CUdeviceptr)(i + 1) << 24);
}

/* A boundary callback: prints the step; `userData` is the result. */
static int printBoundary(void *userData, const CodaBoundary *boundary) {
  printf("boundary step %zu: %s over %" PRId64 " rows, operands",
         boundary->step, boundary->op, boundary->rows);
  for (size_t i = 0; i < boundary->numOperands; ++i)
    printf(" %s=0x%llx", boundary->operandNames[i],
           (unsigned long long)boundary->operands[i]);
  printf(", results");
  for (size_t i = 0; i < boundary->numResults; ++i)
    printf(" %s=0x%llx", boundary->resultNames[i],
           (unsigned long long)boundary->results[i]);
  printf("\n");
  return *(const int *)userData;
}

static void printResults(const CodaSession *session) {
  printf("results:");
  for (size_t i = 0; i < codaSessionResultCount(session); ++i)
    printf(" %s", codaSessionResultName(session, i));
  int64_t rows = codaSessionStaticRows(session);
  if (rows == 0)
    printf("; any row count\n");
  else
    printf("; %" PRId64 " rows only\n", rows);
}

/* Copies `bytes` of a pattern to fresh device memory and back on the
   default stream and checks what came back: the stand-in driver fills
   downloads with zeros. */
static void roundTrip(size_t bytes) {
  unsigned char *sent = malloc(bytes), *received = malloc(bytes);
  for (size_t i = 0; i < bytes; ++i)
    sent[i] = (unsigned char)(i + 1);
  CUdeviceptr address;
  check(codaMemoryAllocate(bytes, &address));
  check(codaMemoryCopyToDevice(address, sent, bytes, NULL));
  check(codaMemoryCopyToHost(received, address, bytes, NULL));
  check(codaStreamSynchronize(NULL));
  check(codaMemoryFree(address));
  printf("round trip of %zu bytes: %s\n", bytes,
         memcmp(sent, received, bytes) == 0 ? "same bytes" : "other bytes");
  free(sent);
  free(received);
}

static void timeLaunch(CodaSession *session, int64_t rows) {
  CUevent start, end;
  float milliseconds;
  check(codaEventCreate(&start));
  check(codaEventCreate(&end));
  check(codaEventRecord(start, NULL));
  check(codaSessionLaunch(session, rows, NULL));
  check(codaEventRecord(end, NULL));
  check(codaEventElapsedMs(start, end, &milliseconds));
  check(codaEventDestroy(start));
  check(codaEventDestroy(end));
  printf("launched %" PRId64 " rows in %.3f ms\n", rows, milliseconds);
}

/* Reads the file at `path` into `*bytes` (malloc'd) or exits. */
static size_t readFile(const char *path, char **bytes) {
  FILE *file = fopen(path, "rb");
  if (!file)
    usageError("cannot open ", path);
  size_t size = 0, capacity = 1 << 16, read;
  *bytes = malloc(capacity);
  while ((read = fread(*bytes + size, 1, capacity - size, file)) != 0)
    if ((size += read) == capacity)
      *bytes = realloc(*bytes, capacity *= 2);
  fclose(file);
  return size;
}

/* Loads the bundle from the files at the paths, or from their bytes. */
static CodaBundle *loadBundle(const char *image, const char *plan,
                              int fromMemory) {
  CodaBundle *bundle;
  if (!fromMemory) {
    check(codaBundleLoad(image, plan, &bundle));
    return bundle;
  }
  char *imageBytes, *planBytes;
  size_t imageSize = readFile(image, &imageBytes);
  size_t planSize = readFile(plan, &planBytes);
  check(codaBundleLoadFromMemory(imageBytes, imageSize, planBytes, planSize,
                                 &bundle));
  free(imageBytes);
  free(planBytes);
  return bundle;
}

/* Prints the status an entry point returned for a null argument. */
static void printNullStatus(CodaStatus status) {
  printf("%s: %s\n", codaStatusName(status),
         status == CodaSuccess ? "" : codaGetLastError());
}

/* Each entry point that returns a status, called with one of its required
   pointers null: each is CodaErrorInvalidArgument, touching no driver. */
static void callWithNullArguments(CodaSession *session) {
  CodaBundle *bundle;
  CodaSession *other;
  CUdeviceptr address = 1 << 24;
  size_t count;
  char byte = 0;
  float milliseconds;
  printNullStatus(codaBundleLoad(NULL, "plan.json", &bundle));
  printNullStatus(codaBundleLoadFromMemory(&byte, 1, NULL, 0, &bundle));
  printNullStatus(codaSessionCreate(NULL, NULL, &other));
  printNullStatus(codaSessionFindBuffer(session, NULL, &count));
  printNullStatus(codaSessionWorkspaceBytes(session, 8, NULL));
  printNullStatus(codaSessionBind(session, NULL, address));
  printNullStatus(codaSessionReserve(NULL, 8, NULL));
  printNullStatus(codaSessionLaunch(NULL, 8, NULL));
  printNullStatus(codaContextRetain(0, NULL));
  printNullStatus(codaMemoryAllocate(8, NULL));
  printNullStatus(codaMemoryCopyToDevice(address, NULL, 1, NULL));
  printNullStatus(codaMemoryCopyToHost(NULL, address, 1, NULL));
  printNullStatus(codaEventCreate(NULL));
  printNullStatus(codaEventRecord(NULL, NULL));
  printNullStatus(codaEventElapsedMs(NULL, NULL, &milliseconds));
}

int main(int argc, char **argv) {
  int fromMemory = argc > 1 && strcmp(argv[1], "--memory") == 0;
  char **paths = argv + fromMemory;
  if (argc - fromMemory < 3)
    usageError("expected IMAGE and PLAN", "");
  const char *function = NULL;
  int first = 3 + fromMemory;
  if (argc > first + 1 && strcmp(argv[first], "--function") == 0) {
    function = argv[first + 1];
    first += 2;
  }

  CodaBundle *bundle = loadBundle(paths[1], paths[2], fromMemory);
  CodaSession *session;
  check(codaSessionCreate(bundle, function, &session));
  if (first == argc)
    printSummary(bundle, session);

  static int succeed = 0, fail = 1;
  for (int i = first; i < argc; ++i) {
    const char *action = argv[i];
    int hasValue = i + 1 < argc;
    if (strcmp(action, "--summary") == 0) {
      printSummary(bundle, session);
    } else if (strcmp(action, "--bind-all") == 0) {
      bindAll(session);
    } else if (strcmp(action, "--results") == 0) {
      printResults(session);
    } else if (strcmp(action, "--null-arguments") == 0) {
      callWithNullArguments(session);
    } else if (strcmp(action, "--unbind-all") == 0) {
      codaSessionUnbindAll(session);
      printf("unbound all\n");
    } else if (!hasValue) {
      usageError("unknown action or missing value: ", action);
    } else if (strcmp(action, "--workspace") == 0) {
      int64_t rows = parseRows(argv[++i]);
      size_t bytes;
      check(codaSessionWorkspaceBytes(session, rows, &bytes));
      printf("workspace for %" PRId64 " rows: %zu bytes\n", rows, bytes);
    } else if (strcmp(action, "--bind") == 0) {
      bindArgument(session, argv[++i]);
    } else if (strcmp(action, "--boundary") == 0) {
      const char *outcome = argv[++i];
      if (strcmp(outcome, "ok") != 0 && strcmp(outcome, "fail") != 0)
        usageError("expected ok or fail: ", outcome);
      codaSessionSetBoundaryCallback(session, printBoundary,
                                     strcmp(outcome, "ok") == 0 ? &succeed
                                                                : &fail);
    } else if (strcmp(action, "--reserve") == 0) {
      int64_t rows = parseRows(argv[++i]);
      check(codaSessionReserve(session, rows, NULL));
      printf("reserved %" PRId64 " rows\n", rows);
    } else if (strcmp(action, "--launch") == 0) {
      int64_t rows = parseRows(argv[++i]);
      check(codaSessionLaunch(session, rows, NULL));
      printf("launched %" PRId64 " rows\n", rows);
    } else if (strcmp(action, "--retain") == 0) {
      int device = (int)parseRows(argv[++i]);
      CUcontext context;
      check(codaContextRetain(device, &context));
      printf("retained the primary context of device %d\n", device);
    } else if (strcmp(action, "--release") == 0) {
      int device = (int)parseRows(argv[++i]);
      check(codaContextRelease(device));
      printf("released the primary context of device %d\n", device);
    } else if (strcmp(action, "--round-trip") == 0) {
      roundTrip((size_t)parseRows(argv[++i]));
    } else if (strcmp(action, "--time-launch") == 0) {
      timeLaunch(session, parseRows(argv[++i]));
    } else {
      usageError("unknown action: ", action);
    }
  }
  codaSessionDestroy(session);
  codaBundleDestroy(bundle);
  return 0;
}
