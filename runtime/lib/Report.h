//===- Report.h - the C API's last error ------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every C API function that returns a status records it here, for
// codaGetLastError().
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNTIME_REPORT_H
#define CODA_RUNTIME_REPORT_H

#include "Status.h"

namespace coda::runtime {

/// Records `status` as the thread's last outcome and returns its code.
CodaStatus report(const Status &status);

/// Reports CodaErrorInvalidArgument: a required argument of `function` is
/// null.
CodaStatus reportNull(const char *function);

} // namespace coda::runtime

#endif // CODA_RUNTIME_REPORT_H
