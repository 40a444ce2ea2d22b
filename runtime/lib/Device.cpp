//===- Device.cpp - the C API's contexts, memory, streams and events ------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Each function opens the driver (as a launch does), makes one driver call
// and reports its outcome, naming the call and its operands.
//
//===----------------------------------------------------------------------===//

#include "coda-runtime/coda_runtime.h"

#include "Driver.h"
#include "Report.h"

using namespace coda::runtime;

/// Opens the driver and runs `call` on it; a failed CUresult is reported
/// as `what` failing.
template <typename Call>
static CodaStatus callDriver(const std::string &what, Call call) {
  const Driver *driver;
  if (Status status = getDriver(driver))
    return report(status);
  if (CUresult result = call(*driver))
    return report(driver->fail(result, what));
  return report(Status());
}

CodaStatus codaContextRetain(int device, CUcontext *context) {
  if (!context)
    return reportNull("codaContextRetain");
  std::string what =
      "retaining the primary context of device " + std::to_string(device);
  return callDriver(what, [&](const Driver &driver) {
    CUdevice handle;
    if (CUresult result = driver.cuDeviceGet(&handle, device))
      return result;
    if (CUresult result = driver.cuDevicePrimaryCtxRetain(context, handle))
      return result;
    return driver.cuCtxSetCurrent(*context);
  });
}

CodaStatus codaContextRelease(int device) {
  std::string what =
      "releasing the primary context of device " + std::to_string(device);
  return callDriver(what, [&](const Driver &driver) {
    CUdevice handle;
    if (CUresult result = driver.cuDeviceGet(&handle, device))
      return result;
    return driver.cuDevicePrimaryCtxRelease(handle);
  });
}

CodaStatus codaMemoryAllocate(size_t bytes, CUdeviceptr *address) {
  if (!address)
    return reportNull("codaMemoryAllocate");
  if (bytes == 0)
    return report(Status(CodaErrorInvalidArgument,
                         "codaMemoryAllocate: cannot allocate 0 bytes"));
  return callDriver(
      "allocating " + std::to_string(bytes) + " bytes of device memory",
      [&](const Driver &driver) { return driver.cuMemAlloc(address, bytes); });
}

CodaStatus codaMemoryFree(CUdeviceptr address) {
  if (!address)
    return report(Status());
  return callDriver(
      "freeing device memory at " + formatAddress(address),
      [&](const Driver &driver) { return driver.cuMemFree(address); });
}

CodaStatus codaMemoryCopyToDevice(CUdeviceptr destination, const void *source,
                                  size_t bytes, CUstream stream) {
  if (!destination || !source)
    return reportNull("codaMemoryCopyToDevice");
  return callDriver("copying " + std::to_string(bytes) +
                        " bytes to the device at " + formatAddress(destination),
                    [&](const Driver &driver) {
                      return driver.cuMemcpyHtoDAsync(destination, source,
                                                      bytes, stream);
                    });
}

CodaStatus codaMemoryCopyToHost(void *destination, CUdeviceptr source,
                                size_t bytes, CUstream stream) {
  if (!destination || !source)
    return reportNull("codaMemoryCopyToHost");
  return callDriver("copying " + std::to_string(bytes) +
                        " bytes to the host from " + formatAddress(source),
                    [&](const Driver &driver) {
                      return driver.cuMemcpyDtoHAsync(destination, source,
                                                      bytes, stream);
                    });
}

CodaStatus codaStreamSynchronize(CUstream stream) {
  return callDriver("synchronizing the stream", [&](const Driver &driver) {
    return driver.cuStreamSynchronize(stream);
  });
}

CodaStatus codaEventCreate(CUevent *event) {
  if (!event)
    return reportNull("codaEventCreate");
  return callDriver("creating an event", [&](const Driver &driver) {
    return driver.cuEventCreate(event, CU_EVENT_DEFAULT);
  });
}

CodaStatus codaEventDestroy(CUevent event) {
  if (!event)
    return report(Status());
  return callDriver("destroying an event", [&](const Driver &driver) {
    return driver.cuEventDestroy(event);
  });
}

CodaStatus codaEventRecord(CUevent event, CUstream stream) {
  if (!event)
    return reportNull("codaEventRecord");
  return callDriver("recording an event", [&](const Driver &driver) {
    return driver.cuEventRecord(event, stream);
  });
}

CodaStatus codaEventElapsedMs(CUevent start, CUevent end, float *milliseconds) {
  if (!start || !end || !milliseconds)
    return reportNull("codaEventElapsedMs");
  return callDriver("timing between two events", [&](const Driver &driver) {
    if (CUresult result = driver.cuEventSynchronize(end))
      return result;
    return driver.cuEventElapsedTime(milliseconds, start, end);
  });
}
