//===- Runtime.cpp - the C API --------------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The handles of coda_runtime.h over Bundle and Session, and the
// thread's last error (the device memory functions are in Device.cpp).
//
//===----------------------------------------------------------------------===//

#include "coda-runtime/coda_runtime.h"

#include "Report.h"
#include "Session.h"

using namespace coda::runtime;

struct CodaBundle {
  std::shared_ptr<Bundle> bundle;
};

struct CodaSession {
  Session session;
};

/// The message of the thread's last call that returned a status.
static thread_local std::string lastError;

CodaStatus coda::runtime::report(const Status &status) {
  lastError = status.getMessage();
  return status.getCode();
}

CodaStatus coda::runtime::reportNull(const char *function) {
  return report(
      Status(CodaErrorInvalidArgument,
             std::string(function) + ": a required argument is null"));
}

const char *codaStatusName(CodaStatus status) {
  switch (status) {
#define CODA_STATUS_NAME(name)                                                 \
  case name:                                                                   \
    return #name;
    CODA_STATUS_NAME(CodaSuccess)
    CODA_STATUS_NAME(CodaErrorInvalidArgument)
    CODA_STATUS_NAME(CodaErrorFile)
    CODA_STATUS_NAME(CodaErrorInvalidPlan)
    CODA_STATUS_NAME(CodaErrorInvalidImage)
    CODA_STATUS_NAME(CodaErrorUnknownFunction)
    CODA_STATUS_NAME(CodaErrorUnknownBuffer)
    CODA_STATUS_NAME(CodaErrorMisalignedBuffer)
    CODA_STATUS_NAME(CodaErrorUnboundBuffer)
    CODA_STATUS_NAME(CodaErrorInvalidRows)
    CODA_STATUS_NAME(CodaErrorNoBoundaryCallback)
    CODA_STATUS_NAME(CodaErrorBoundaryFailed)
    CODA_STATUS_NAME(CodaErrorNoDriver)
    CODA_STATUS_NAME(CodaErrorNoDevice)
    CODA_STATUS_NAME(CodaErrorContext)
    CODA_STATUS_NAME(CodaErrorArchMismatch)
    CODA_STATUS_NAME(CodaErrorUnknownKernel)
    CODA_STATUS_NAME(CodaErrorOutOfMemory)
    CODA_STATUS_NAME(CodaErrorCuda)
#undef CODA_STATUS_NAME
  }
  return "CodaErrorUnknownStatus";
}

const char *codaGetLastError(void) { return lastError.c_str(); }

//===----------------------------------------------------------------------===//
// Bundles
//===----------------------------------------------------------------------===//

/// Wraps a loaded bundle in a handle.
static CodaStatus wrap(const Status &status, std::shared_ptr<Bundle> loaded,
                       CodaBundle **bundle) {
  if (!status)
    *bundle = new CodaBundle{std::move(loaded)};
  return report(status);
}

CodaStatus codaBundleLoad(const char *imagePath, const char *planPath,
                          CodaBundle **bundle) {
  if (!imagePath || !planPath || !bundle)
    return reportNull("codaBundleLoad");
  std::shared_ptr<Bundle> loaded;
  Status status = Bundle::load(imagePath, planPath, loaded);
  return wrap(status, std::move(loaded), bundle);
}

CodaStatus codaBundleLoadFromMemory(const void *image, size_t imageSize,
                                    const char *plan, size_t planSize,
                                    CodaBundle **bundle) {
  if (!image || !plan || !bundle)
    return reportNull("codaBundleLoadFromMemory");
  std::shared_ptr<Bundle> loaded;
  Status status = Bundle::create(
      std::string(static_cast<const char *>(image), imageSize),
      std::string_view(plan, planSize), "<memory>", "<memory>", loaded);
  return wrap(status, std::move(loaded), bundle);
}

void codaBundleDestroy(CodaBundle *bundle) { delete bundle; }

const char *codaBundleTarget(const CodaBundle *bundle) {
  return bundle ? bundle->bundle->getPlan().target.name.c_str() : nullptr;
}

size_t codaBundleFunctionCount(const CodaBundle *bundle) {
  return bundle ? bundle->bundle->getPlan().functions.size() : 0;
}

const char *codaBundleFunctionName(const CodaBundle *bundle, size_t index) {
  if (index >= codaBundleFunctionCount(bundle))
    return nullptr;
  return bundle->bundle->getPlan().functions[index].name.c_str();
}

//===----------------------------------------------------------------------===//
// Sessions
//===----------------------------------------------------------------------===//

CodaStatus codaSessionCreate(CodaBundle *bundle, const char *function,
                             CodaSession **session) {
  if (!bundle || !session)
    return reportNull("codaSessionCreate");
  const std::vector<Function> &functions = bundle->bundle->getPlan().functions;
  const Function *chosen = nullptr;
  if (function) {
    for (const Function &candidate : functions)
      if (candidate.name == function)
        chosen = &candidate;
    if (!chosen)
      return report(Status(CodaErrorUnknownFunction,
                           std::string("the launch plan has no function '") +
                               function + "'"));
  } else {
    if (functions.size() != 1)
      return report(Status(CodaErrorUnknownFunction,
                           "the launch plan has " +
                               std::to_string(functions.size()) +
                               " functions; name one"));
    chosen = &functions.front();
  }
  *session = new CodaSession{Session(bundle->bundle, *chosen)};
  return report(Status());
}

void codaSessionDestroy(CodaSession *session) { delete session; }

/// Buffer `index` of `session`, or null when out of range.
static const Buffer *getBuffer(const CodaSession *session, size_t index) {
  if (!session || index >= session->session.getFunction().buffers.size())
    return nullptr;
  return &session->session.getFunction().buffers[index];
}

size_t codaSessionBufferCount(const CodaSession *session) {
  return session ? session->session.getFunction().buffers.size() : 0;
}

CodaStatus codaSessionFindBuffer(const CodaSession *session, const char *name,
                                 size_t *index) {
  if (!session || !name || !index)
    return reportNull("codaSessionFindBuffer");
  return report(session->session.getFunction().getBuffer(name, *index));
}

const char *codaSessionBufferName(const CodaSession *session, size_t index) {
  const Buffer *buffer = getBuffer(session, index);
  return buffer ? buffer->name.c_str() : nullptr;
}

const char *codaSessionBufferType(const CodaSession *session, size_t index) {
  const Buffer *buffer = getBuffer(session, index);
  return buffer ? getElementTypeName(buffer->type) : nullptr;
}

CodaBufferRole codaSessionBufferRole(const CodaSession *session, size_t index) {
  const Buffer *buffer = getBuffer(session, index);
  return buffer ? buffer->role : CodaBufferWorkspace;
}

size_t codaSessionBufferRank(const CodaSession *session, size_t index) {
  const Buffer *buffer = getBuffer(session, index);
  return buffer ? buffer->shape.size() : 0;
}

int64_t codaSessionBufferDim(const CodaSession *session, size_t index,
                             size_t dim) {
  const Buffer *buffer = getBuffer(session, index);
  return buffer && dim < buffer->shape.size() ? buffer->shape[dim] : 0;
}

const char *codaSessionBufferViewOf(const CodaSession *session, size_t index) {
  const Buffer *buffer = getBuffer(session, index);
  if (!buffer || buffer->viewOf == index)
    return nullptr;
  return session->session.getFunction().buffers[buffer->viewOf].name.c_str();
}

size_t codaSessionResultCount(const CodaSession *session) {
  return session ? session->session.getFunction().results.size() : 0;
}

const char *codaSessionResultName(const CodaSession *session, size_t index) {
  if (index >= codaSessionResultCount(session))
    return nullptr;
  const Function &function = session->session.getFunction();
  return function.buffers[function.results[index]].name.c_str();
}

int64_t codaSessionStaticRows(const CodaSession *session) {
  return session ? session->session.getFunction().getRequiredRows().value_or(0)
                 : 0;
}

size_t codaSessionKernelCount(const CodaSession *session) {
  return session ? session->session.getFunction().kernelCount : 0;
}

CodaStatus codaSessionWorkspaceBytes(const CodaSession *session, int64_t rows,
                                     size_t *bytes) {
  if (!session || !bytes)
    return reportNull("codaSessionWorkspaceBytes");
  uint64_t size;
  Status status = session->session.getWorkspaceBytes(rows, size);
  if (!status)
    *bytes = size_t(size);
  return report(status);
}

CodaStatus codaSessionBind(CodaSession *session, const char *name,
                           CUdeviceptr address) {
  if (!session || !name)
    return reportNull("codaSessionBind");
  return report(session->session.bind(name, address));
}

void codaSessionUnbindAll(CodaSession *session) {
  if (session)
    session->session.unbindAll();
}

void codaSessionSetBoundaryCallback(CodaSession *session,
                                    CodaBoundaryCallback callback,
                                    void *userData) {
  if (session)
    session->session.setBoundaryCallback(callback, userData);
}

CodaStatus codaSessionReserve(CodaSession *session, int64_t rows,
                              CUstream stream) {
  if (!session)
    return reportNull("codaSessionReserve");
  return report(session->session.reserve(rows, stream));
}

CodaStatus codaSessionLaunch(CodaSession *session, int64_t rows,
                             CUstream stream) {
  if (!session)
    return reportNull("codaSessionLaunch");
  return report(session->session.launch(rows, stream));
}
