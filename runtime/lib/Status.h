//===- Status.h - a status code with its message ----------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNTIME_STATUS_H
#define CODA_RUNTIME_STATUS_H

#include "coda-runtime/coda_runtime.h"

#include <string>
#include <utility>

namespace coda::runtime {

/// What an internal call did: success, or a CodaStatus and the message
/// codaGetLastError() will return. Converts to true on failure, as
/// llvm::Error does: `if (Status status = f()) return status;`.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(CodaStatus code, std::string message)
      : code(code), message(std::move(message)) {}

  explicit operator bool() const { return code != CodaSuccess; }
  CodaStatus getCode() const { return code; }
  const std::string &getMessage() const { return message; }

private:
  CodaStatus code = CodaSuccess;
  std::string message;
};

} // namespace coda::runtime

#endif // CODA_RUNTIME_STATUS_H
