//===- InitAll.h - register everything coda offers --------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_INITALL_H
#define CODA_INITALL_H

namespace mlir {
class DialectRegistry;

namespace coda {

/// Adds the coda dialect and every upstream dialect coda's pipelines use.
void registerAllDialects(DialectRegistry &registry);

/// Adds every dialect coda-translate's translations accept in their input
/// (and compileToBundle of coda/Compiler.h): coda's, and upstream's with
/// their extensions and LLVM IR translations.
void registerAllTranslationDialects(DialectRegistry &registry);

/// Registers every coda pass and pipeline with the global pass registry.
void registerAllPasses();

/// Registers every coda translation with the global translation registry.
void registerAllTranslations();

} // namespace coda
} // namespace mlir

#endif // CODA_INITALL_H
