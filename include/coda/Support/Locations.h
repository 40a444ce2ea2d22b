//===- Locations.h - locations in messages for users ------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_SUPPORT_LOCATIONS_H
#define CODA_SUPPORT_LOCATIONS_H

#include "mlir/IR/Location.h"

#include <string>

namespace mlir::coda {

/// Returns " (line N)" for a location in a source file (looking through
/// fused and named locations), "" otherwise.
std::string formatSourceLine(Location loc);

/// Returns "file:line:col" for a location in a source file (looking through
/// fused and named locations), "" otherwise.
std::string formatSourceLocation(Location loc);

} // namespace mlir::coda

#endif // CODA_SUPPORT_LOCATIONS_H
