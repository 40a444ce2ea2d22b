//===- coda-compile-check.cpp - drives the C++ embedding API --------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Usage: coda-compile-check FILE [--threads N] [--stages S]
//                                [--schedule NAME] [--cubin] [--print-plan]
//
// Compiles FILE with mlir::coda::compileToBundle once on this thread, then
// N times at once on N threads (default 2), each call in a context of its
// own, and checks that every compilation made the same bundle and
// diagnostics. Prints the diagnostics and the sizes of what was made; the
// lit tests of test/Embed are written against it. --print-plan prints the
// launch plan after them. Exits 1 when the
// compilations disagree or failed.
//
//===----------------------------------------------------------------------===//

#include "coda/Compiler.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

using namespace mlir::coda;

static const char *const severityNames[] = {"error", "warning", "note",
                                            "remark"};

[[noreturn]] static void usageError(const char *message, const char *what) {
  std::fprintf(stderr,
               "error: %s%s\nusage: coda-compile-check FILE [--threads N] "
               "[--stages S] [--schedule NAME] [--cubin] [--print-plan]\n",
               message, what);
  std::exit(2);
}

/// A count from 1 to 1024 (threads, stages), else a usage error.
static unsigned parseCount(const char *text) {
  char *end;
  unsigned long value = std::strtoul(text, &end, 10);
  if (*text < '0' || *text > '9' || *end != '\0' || value < 1 || value > 1024)
    usageError("not a count from 1 to 1024: ", text);
  return static_cast<unsigned>(value);
}

static bool isSame(const CompileDiagnostic &a, const CompileDiagnostic &b) {
  return a.severity == b.severity && a.message == b.message &&
         a.file == b.file && a.line == b.line && a.column == b.column;
}

static bool isSame(const CompileResult &a, const CompileResult &b) {
  return a.succeeded == b.succeeded && a.ptx == b.ptx && a.cubin == b.cubin &&
         a.plan == b.plan &&
         std::equal(a.diagnostics.begin(), a.diagnostics.end(),
                    b.diagnostics.begin(), b.diagnostics.end(),
                    [](const CompileDiagnostic &x, const CompileDiagnostic &y) {
                      return isSame(x, y);
                    });
}

int main(int argc, char **argv) {
  if (argc < 2)
    usageError("expected FILE", "");
  unsigned threads = 2;
  bool printPlan = false;
  CompileOptions options;
  options.bufferName = argv[1];
  for (int i = 2; i < argc; ++i) {
    const char *option = argv[i];
    if (std::strcmp(option, "--cubin") == 0)
      options.target = CompileTarget::Cubin;
    else if (std::strcmp(option, "--print-plan") == 0)
      printPlan = true;
    else if (i + 1 == argc)
      usageError("unknown option or missing value: ", option);
    else if (std::strcmp(option, "--threads") == 0)
      threads = parseCount(argv[++i]);
    else if (std::strcmp(option, "--stages") == 0)
      options.stages = parseCount(argv[++i]);
    else if (std::strcmp(option, "--schedule") == 0)
      options.schedule = argv[++i];
    else
      usageError("unknown option: ", option);
  }
  std::ifstream file(argv[1], std::ios::binary);
  if (!file)
    usageError("cannot read ", argv[1]);
  std::stringstream text;
  text << file.rdbuf();
  std::string moduleText = text.str();

  CompileResult first = compileToBundle(moduleText, options);
  std::vector<CompileResult> results(threads);
  std::vector<std::thread> workers;
  for (CompileResult &result : results)
    workers.emplace_back(
        [&] { result = compileToBundle(moduleText, options); });
  for (std::thread &worker : workers)
    worker.join();

  for (const CompileDiagnostic &diagnostic : first.diagnostics)
    std::printf("%s:%u:%u: %s: %s\n", diagnostic.file.c_str(), diagnostic.line,
                diagnostic.column,
                severityNames[static_cast<int>(diagnostic.severity)],
                diagnostic.message.c_str());
  bool agree = true;
  for (const CompileResult &result : results)
    agree = agree && isSame(result, first);
  std::printf("%u compilations %s: %s, %zu bytes of PTX, %zu bytes of "
              "cubin, %zu bytes of plan\n",
              threads + 1, agree ? "agree" : "disagree",
              first.succeeded ? "compiled" : "failed", first.ptx.size(),
              first.cubin.size(), first.plan.size());
  if (printPlan)
    std::printf("%s", first.plan.c_str());
  return agree && first.succeeded ? 0 : 1;
}
