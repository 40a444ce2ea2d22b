//===- PTX.cpp - coda functions to PTX for sm_90a -------------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda/Target/PTX/PTX.h"

#include "coda/Target/PTX/LaunchPlan.h"

#include "coda/Conversion/Passes.h"
#include "coda/Dialect/Coda/IR/CodaDialect.h"
#include "coda/InitAll.h"
#include "coda/Pipelines/Pipelines.h"
#include "coda/Support/TopLevelModule.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::coda;

/// Points CUDA_ROOT at /usr/local/cuda when it is unset and the toolkit is
/// there, before ptxas is looked up (coda-lower-kernel-modules does the
/// same for libdevice).
static void defaultCudaRoot() {
  if (!std::getenv("CUDA_ROOT") &&
      llvm::sys::fs::is_directory("/usr/local/cuda"))
    ::setenv("CUDA_ROOT", "/usr/local/cuda", /*overwrite=*/0);
}

/// Writes the launch plan `plan` of `module` to `path`.
static LogicalResult writeLaunchPlanFile(ModuleOp module, StringRef plan,
                                         StringRef path) {
  std::error_code error;
  llvm::raw_fd_ostream file(path, error);
  if (error)
    return mlir::emitError(module.getLoc(), "cannot write the launch plan '")
           << path << "': " << error.message();
  file << plan;
  return success();
}

LogicalResult
mlir::coda::translateToPTX(ModuleOp module, raw_ostream &os, raw_ostream *plan,
                           const CodaToPTXPipelineOptions &options) {
  MLIRContext *context = module.getContext();
  // Kernels for the GEMMs of every function, fused first if the input is at
  // the graph level (the pipeline leaves an epilogue-level input as it is);
  // a module at the kernel level (convert-coda-to-gpu already ran, with
  // the options it was given) is only lowered.
  PassManager pm(context);
  if (module.getOps<gpu::GPUModuleOp>().empty())
    buildCodaToPTXPipeline(pm, options);
  else
    buildCodaLowerToNVVMPipeline(pm);
  if (failed(pm.run(module)))
    return failure();
  if (module.getOps<gpu::BinaryOp>().empty()) {
    // On the first function, if any: the implicit module has no line.
    auto functions = module.getOps<func::FuncOp>();
    return mlir::emitError(functions.empty() ? module.getLoc()
                                             : (*functions.begin()).getLoc(),
                           "no coda.gemm to generate a kernel for");
  }
  if (plan)
    writeLaunchPlan(module, *plan);

  for (auto binary : module.getOps<gpu::BinaryOp>())
    for (Attribute object : binary.getObjects())
      os << "// kernels of @" << binary.getName() << "\n"
         << cast<gpu::ObjectAttr>(object).getObject().getValue();
  return success();
}

LogicalResult mlir::coda::assemblePTX(Location loc, StringRef ptx,
                                      raw_ostream &os) {
  defaultCudaRoot();
  const char *cudaRoot = std::getenv("CUDA_ROOT");
  llvm::SmallString<128> ptxas(cudaRoot ? cudaRoot : "");
  llvm::sys::path::append(ptxas, "bin", "ptxas");
  if (!cudaRoot || !llvm::sys::fs::can_execute(ptxas))
    return mlir::emitError(loc, "cannot find ptxas at '")
           << ptxas << "': set CUDA_ROOT to the CUDA toolkit";

  // The PTX ptxas reads, the cubin it writes and its log, removed on return.
  llvm::SmallString<128> paths[3];
  llvm::FileRemover removers[3];
  StringRef suffixes[] = {"ptx", "cubin", "log"};
  for (auto [path, remover, suffix] :
       llvm::zip_equal(paths, removers, suffixes)) {
    if (std::error_code error =
            llvm::sys::fs::createTemporaryFile("coda", suffix, path))
      return mlir::emitError(loc, "cannot create temporary files for ptxas: ")
             << error.message();
    remover.setFile(path);
  }
  StringRef ptxPath = paths[0], cubinPath = paths[1], logPath = paths[2];
  {
    std::error_code error;
    llvm::raw_fd_ostream file(ptxPath, error);
    if (error)
      return mlir::emitError(loc, "cannot write ")
             << ptxPath << ": " << error.message();
    file << ptx;
  }
  SmallVector<StringRef> arguments = {ptxas, "-arch=sm_90a", ptxPath, "-o",
                                      cubinPath};
  std::optional<StringRef> redirects[] = {std::nullopt, logPath, logPath};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(ptxas, arguments, std::nullopt,
                                         redirects, 0, 0, &message);
  if (status != 0) {
    auto log = llvm::MemoryBuffer::getFile(logPath);
    return mlir::emitError(loc, "ptxas failed (exit ")
           << status << "): " << (log ? (*log)->getBuffer().trim() : message);
  }
  auto cubin = llvm::MemoryBuffer::getFile(cubinPath);
  if (!cubin)
    return mlir::emitError(loc, "cannot read the cubin ptxas wrote: ")
           << cubin.getError().message();
  StringRef bytes = (*cubin)->getBuffer();
  if (!bytes.starts_with("\177ELF"))
    return mlir::emitError(loc, "ptxas exited 0 but wrote no ELF cubin (")
           << bytes.size() << " bytes)";
  os << bytes;
  return success();
}

LogicalResult
mlir::coda::translateToCubin(ModuleOp module, raw_ostream &os,
                             raw_ostream *plan,
                             const CodaToPTXPipelineOptions &options) {
  std::string ptx;
  llvm::raw_string_ostream ptxStream(ptx);
  if (failed(translateToPTX(module, ptxStream, plan, options)))
    return failure();
  return assemblePTX(module.getLoc(), ptx, os);
}

/// The launch plan's path: `--coda-launch-plan`, or beside the `-o` file
/// with its extension replaced by `.plan.json`; none when the output is not
/// a regular file (stdout, /dev/null).
static std::string getLaunchPlanPath(const llvm::cl::opt<std::string> &option) {
  if (!option.empty())
    return option;
  auto &registered = llvm::cl::getRegisteredOptions();
  auto it = registered.find("o");
  if (it == registered.end())
    return "";
  auto *output = static_cast<llvm::cl::opt<std::string> *>(it->second);
  if (!llvm::sys::fs::is_regular_file(output->getValue()))
    return "";
  llvm::SmallString<128> path(output->getValue());
  llvm::sys::path::replace_extension(path, "plan.json");
  return std::string(path);
}

void mlir::coda::registerPTXTranslation() {
  static llvm::cl::opt<std::string> launchPlan(
      "coda-launch-plan",
      llvm::cl::desc("Where --coda-to-ptx and --coda-to-cubin write the "
                     "launch plan (JSON); default: beside the -o file, as "
                     "<name>.plan.json"),
      llvm::cl::value_desc("path"));
  using Translate = LogicalResult (*)(ModuleOp, raw_ostream &, raw_ostream *,
                                      const CodaToPTXPipelineOptions &);
  auto onModule = [](Translate translate) {
    return [translate](Operation *op, raw_ostream &os) -> LogicalResult {
      ModuleOp module = getTopLevelModule(op);
      if (!module)
        return failure();
      // The plan file is written only once the translation succeeded.
      std::string planPath = getLaunchPlanPath(launchPlan), plan;
      llvm::raw_string_ostream planStream(plan);
      if (failed(translate(module, os, planPath.empty() ? nullptr : &planStream,
                           {})))
        return failure();
      return planPath.empty() ? success()
                              : writeLaunchPlanFile(module, plan, planPath);
    };
  };
  TranslateFromMLIRRegistration ptx(
      "coda-to-ptx", "compile the GEMMs of every function to PTX for sm_90a",
      onModule(translateToPTX), registerAllTranslationDialects);
  TranslateFromMLIRRegistration cubin(
      "coda-to-cubin",
      "compile the GEMMs of every function to a cubin for sm_90a (ptxas from "
      "CUDA_ROOT)",
      onModule(translateToCubin), registerAllTranslationDialects);
}
