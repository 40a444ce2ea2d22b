//===- CodaRunMain.cpp - the coda-run tool --------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// coda-run FILE.mlir --entry NAME [--device cpu|cuda]
//          [--inputs DIR | --seed S --rows M]
//          [--compare-with-unfused | --compare-with-reference |
//           --check-gradients]
//          [--bench [--bench-iterations N]] [--dump-outputs DIR]
//
// Runs a function of a coda module on inputs from .npy files or drawn from a
// seeded generator, on the CPU reference path or (CudaExecutor.h) compiled
// to PTX and launched through the CODA runtime. With --compare-with-unfused
// it also compiles the function through coda-gpu-fuse-pipeline and checks the
// fused program against the unfused one evaluated in f64; with
// --compare-with-reference it checks the CUDA results the same way. See
// docs/Running.md.
//
//===----------------------------------------------------------------------===//

#include "coda/Runner/CodaRunMain.h"

#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "coda/Dialect/Coda/Transforms/Passes.h"
#include "coda/InitAll.h"
#include "coda/Pipelines/Pipelines.h"
#include "coda/Runner/CpuExecutor.h"
#ifdef CODA_HAVE_CUDA_RUNNER
#include "coda/Runner/CudaExecutor.h"
#endif
#include "coda/Runner/Npy.h"
#include "coda/Runner/RandomInputs.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <unistd.h>

using namespace mlir;
using namespace mlir::coda;

namespace {
/// What the command line asked for.
struct RunOptions {
  std::string file;
  std::string entry;
  std::string device;
  std::string inputs;
  uint64_t seed;
  int64_t rows;
  bool compareWithUnfused;
  bool compareWithReference;
  bool checkGradients;
  bool bench;
  unsigned benchIterations;
  std::string dumpOutputs;
};

/// One argument of the entry function and how to fill it.
struct Argument {
  InputSpec spec;
  /// The class count and ignored index of targets, to validate them.
  int64_t ignoreIndex = -100;
};
} // namespace

/// Prints an error in the tool's voice and returns the exit code 1.
static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "coda-run") << message << "\n";
  return 1;
}

/// Fails, reporting on `func`, where the inputs of `specs` would take more
/// bytes than the machine's memory (they are drawn in host memory).
static LogicalResult checkInputsFit(func::FuncOp func,
                                    ArrayRef<InputSpec> specs, int64_t rows) {
  uint64_t bytes = 0;
  bool overflow = false;
  for (const InputSpec &spec : specs) {
    uint64_t count = getElementBytes(spec.kind);
    for (int64_t dim : spec.shape)
      count = llvm::SaturatingMultiply(count, uint64_t(dim), &overflow);
    bytes = llvm::SaturatingAdd(bytes, count, &overflow);
  }
  uint64_t memory = uint64_t(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGESIZE);
  if (!overflow && bytes <= memory)
    return success();
  return func.emitError("the arguments at ")
         << rows << " rows take "
         << (overflow ? std::string("more than 2^64")
                      : llvm::formatv("{0:e2}", double(bytes)).str())
         << " bytes, more than this machine's "
         << llvm::formatv("{0:e2}", double(memory)).str()
         << " bytes of memory; coda-run draws them in host memory";
}

/// Describes the arguments of `func`: their signatures, roles and, for
/// targets, the class count of the cross-entropy reading them.
static FailureOr<SmallVector<Argument>>
describeArguments(func::FuncOp func, int64_t rows, bool fromFiles) {
  // Every argument and result of a type coda-run takes, else reported.
  SmallVector<TensorSignature> signatures, results;
  if (failed(getFunctionSignature(func, /*computeInF64=*/false, signatures,
                                  results)))
    return failure();
  SmallVector<Argument> arguments;
  for (BlockArgument arg : func.getArguments()) {
    unsigned index = arg.getArgNumber();
    const TensorSignature &signature = signatures[index];
    Argument argument;
    argument.spec.kind = signature.kind;
    argument.spec.shape = signature.shape;
    bool dynamicRows = !argument.spec.shape.empty() &&
                       ShapedType::isDynamic(argument.spec.shape[0]);
    if (dynamicRows)
      argument.spec.shape[0] = rows;
    if (!isFloatKind(signature.kind)) {
      argument.spec.role = InputRole::Targets;
      for (Operation *user : arg.getUsers())
        if (auto loss = dyn_cast<CrossEntropyOp>(user);
            loss && loss.getTargets() == arg) {
          argument.spec.classes = loss.getLogits().getType().getDimSize(1);
          argument.ignoreIndex = loss.getIgnoreIndex();
        }
      if (argument.spec.classes == 0 && !fromFiles)
        return func.emitError("integer argument #")
               << index
               << " is not the targets of a coda.cross_entropy, so coda-run "
                  "cannot draw it; pass it with --inputs";
    } else if (dynamicRows) {
      argument.spec.role = InputRole::Activation;
    } else if (argument.spec.shape.size() == 2) {
      argument.spec.role = InputRole::Weight;
    } else {
      argument.spec.role = InputRole::Vector;
    }
    arguments.push_back(std::move(argument));
  }
  return arguments;
}

/// Reads `DIR/arg<i>.npy` for every argument and checks the targets.
static llvm::Expected<std::vector<HostTensor>>
readInputs(StringRef directory, ArrayRef<Argument> arguments) {
  std::vector<HostTensor> inputs;
  for (auto [index, argument] : llvm::enumerate(arguments)) {
    llvm::SmallString<128> path(directory);
    llvm::sys::path::append(path, "arg" + std::to_string(index) + ".npy");
    llvm::Expected<HostTensor> tensor = readNpy(path);
    if (!tensor)
      return tensor.takeError();
    if (argument.spec.role == InputRole::Targets && argument.spec.classes > 0) {
      if (isFloatKind(tensor->getKind()))
        return llvm::createStringError(
            "%s: argument #%zu holds class indices and needs an integer "
            "array, got %s",
            path.c_str(), index, getElementKindName(tensor->getKind()).data());
      for (int64_t i = 0, e = tensor->getNumElements(); i < e; ++i) {
        auto target = static_cast<int64_t>(tensor->get(i));
        if (target != argument.ignoreIndex &&
            (target < 0 || target >= argument.spec.classes))
          return llvm::createStringError(
              "%s: target %lld at row %lld is outside [0, %lld) and is not "
              "ignore_index (%lld)",
              path.c_str(), (long long)target, (long long)i,
              (long long)argument.spec.classes,
              (long long)argument.ignoreIndex);
      }
    }
    inputs.push_back(std::move(*tensor));
  }
  return inputs;
}

/// Writes `DIR/result<i>.npy` for every output.
static llvm::Error dumpOutputs(StringRef directory,
                               ArrayRef<HostTensor> outputs) {
  if (std::error_code error = llvm::sys::fs::create_directories(directory))
    return llvm::createStringError(error, "cannot create %s: %s",
                                   directory.str().c_str(),
                                   error.message().c_str());
  for (auto [index, output] : llvm::enumerate(outputs)) {
    llvm::SmallString<128> path(directory);
    llvm::sys::path::append(path, "result" + std::to_string(index) + ".npy");
    if (llvm::Error error = writeNpy(path, output))
      return error;
  }
  return llvm::Error::success();
}

/// Prints shape and summary statistics of each output.
static void printOutputs(ArrayRef<HostTensor> outputs) {
  for (auto [index, output] : llvm::enumerate(outputs)) {
    double sum = 0, sumSquares = 0;
    double low = INFINITY, high = -INFINITY;
    int64_t count = output.getNumElements();
    for (int64_t i = 0; i < count; ++i) {
      double value = output.get(i);
      sum += value;
      sumSquares += value * value;
      low = std::min(low, value);
      high = std::max(high, value);
    }
    double mean = count ? sum / count : 0;
    double rms = count ? std::sqrt(sumSquares / count) : 0;
    llvm::outs() << llvm::format("result #%zu: %s  mean %.6g  rms %.6g  min "
                                 "%.6g  max %.6g  non-finite %lld\n",
                                 index, output.getTypeString().c_str(), mean,
                                 rms, low, high,
                                 (long long)countNonFinite(output));
  }
}

/// Runs `module` through coda-gpu-fuse-pipeline: what the GPU path
/// compiles, which the CPU reference path lowers too.
static LogicalResult fuse(ModuleOp module) {
  PassManager pm(module.getContext());
  buildCodaGPUFusePipeline(pm.nest<func::FuncOp>(), CodaFusePipelineOptions());
  return pm.run(module);
}

/// Compiles and runs `module`'s entry; errors go to the diagnostics or the
/// returned error.
static llvm::Expected<std::vector<HostTensor>>
compileAndRun(ModuleOp module, StringRef entry, bool computeInF64,
              ArrayRef<HostTensor> inputs) {
  FailureOr<std::unique_ptr<CpuFunction>> function =
      CpuFunction::compile(module, entry, computeInF64);
  if (failed(function))
    return llvm::createStringError("cannot compile @%s for the CPU",
                                   entry.str().c_str());
  return (*function)->run(inputs);
}

/// A result's errors measured over several input draws: the root mean
/// squares of its relative errors, the checked program's and the unfused
/// program's.
struct DrawnErrors {
  double error = 0, unfusedError = 0;
};

/// Prints the error of each of `outputs`, the results of `program`,
/// against `reference` (the unfused program in f64) beside the unfused
/// program's own; past the limit max(1e-5, 2 x the unfused program's
/// error), or with non-finite values the reference lacks, a result fails.
/// A result in `drawn` is judged by its errors over several draws instead.
/// Returns the exit code.
static int checkAgainstReference(
    StringRef program, StringRef column, ArrayRef<HostTensor> outputs,
    ArrayRef<HostTensor> unfused, ArrayRef<HostTensor> reference,
    const llvm::DenseMap<size_t, DrawnErrors> *drawn = nullptr) {
  llvm::outs() << llvm::format("  %-8s %-28s %12s %14s %12s\n", "result",
                               "type", column.str().c_str(), "unfused error",
                               "limit");
  int status = 0;
  for (size_t index = 0; index < reference.size(); ++index) {
    const HostTensor &ref = reference[index];
    const HostTensor &own = unfused[index];
    const HostTensor &mine = outputs[index];
    if (mine.getShape() != ref.getShape())
      return fail("result #" + llvm::Twine(index) + " of " + program + " is " +
                  mine.getTypeString() + " but the reference is " +
                  ref.getTypeString());
    double error = relativeError(mine, ref);
    double unfusedError = relativeError(own, ref);
    if (drawn && drawn->count(index)) {
      error = drawn->lookup(index).error;
      unfusedError = drawn->lookup(index).unfusedError;
    }
    double limit = std::max(1e-5, 2 * unfusedError);
    bool finite = countNonFinite(mine) <= countNonFinite(ref);
    bool ok = finite && error <= limit;
    llvm::outs() << llvm::format("  #%-7zu %-28s %12.3e %14.3e %12.3e  %s\n",
                                 index, mine.getTypeString().c_str(), error,
                                 unfusedError, limit, ok ? "ok" : "FAIL");
    if (!finite)
      status = fail("result #" + llvm::Twine(index) + " of " + program +
                    " has " + llvm::Twine(countNonFinite(mine)) +
                    " non-finite values the reference does not have");
    else if (!ok)
      status = fail("result #" + llvm::Twine(index) + " of " + program +
                    " is off by " + llvm::formatv("{0:e3}", error).str() +
                    ", past the limit " + llvm::formatv("{0:e3}", limit).str());
  }
  return status;
}

/// Runs `module`'s entry on the CPU twice: unfused, and unfused in f64
/// (the reference).
static llvm::Error runReference(ModuleOp module, StringRef entry,
                                ArrayRef<HostTensor> inputs,
                                std::vector<HostTensor> &unfused,
                                std::vector<HostTensor> &reference) {
  auto inF64 = compileAndRun(module, entry, true, inputs);
  if (!inF64)
    return inF64.takeError();
  auto own = compileAndRun(module, entry, false, inputs);
  if (!own)
    return own.takeError();
  reference = std::move(*inF64);
  unfused = std::move(*own);
  return llvm::Error::success();
}

/// Dumps `outputs` where --dump-outputs asks; returns the exit code, or
/// `status` when dumping succeeds.
static int dumpIfAsked(const RunOptions &options, ArrayRef<HostTensor> outputs,
                       int status) {
  if (!options.dumpOutputs.empty())
    if (llvm::Error error = dumpOutputs(options.dumpOutputs, outputs))
      return fail(llvm::toString(std::move(error)));
  return status;
}

/// The input draws that judge a result of one element (a mean loss): a
/// single draw of its error is too noisy for the 2x ratio (the unfused
/// program's error of the LM head's loss spans three orders of magnitude
/// with the seed), the root mean square over this many is not.
constexpr unsigned kOneElementDraws = 8;

/// One draw's results: the checked program's, the unfused program's and
/// the unfused program's in f64.
using DrawOutputs = std::array<std::vector<HostTensor>, 3>;

/// With drawn inputs (`specs`), the errors of the results of one element
/// in `first` (the draw of seed S) over kOneElementDraws draws, seeds S to
/// S + kOneElementDraws - 1, each run by `runDraw`; empty without.
static llvm::Expected<llvm::DenseMap<size_t, DrawnErrors>> drawOneElementErrors(
    const DrawOutputs &first, ArrayRef<InputSpec> specs, unsigned seed,
    llvm::function_ref<llvm::Expected<DrawOutputs>(ArrayRef<HostTensor>)>
        runDraw) {
  llvm::DenseMap<size_t, DrawnErrors> drawn;
  SmallVector<size_t> oneElement;
  for (auto [index, result] : llvm::enumerate(first[2]))
    if (result.getNumElements() == 1 && !specs.empty())
      oneElement.push_back(index);
  if (oneElement.empty())
    return drawn;
  // Sums of squared errors over the draws, the first included.
  auto add = [&](const DrawOutputs &all) {
    for (size_t index : oneElement) {
      DrawnErrors &sum = drawn[index];
      sum.error += std::pow(relativeError(all[0][index], all[2][index]), 2);
      sum.unfusedError +=
          std::pow(relativeError(all[1][index], all[2][index]), 2);
    }
  };
  add(first);
  for (unsigned draw = 1; draw < kOneElementDraws; ++draw) {
    auto all = runDraw(generateInputs(specs, seed + draw));
    if (!all)
      return all.takeError();
    add(*all);
  }
  for (auto &[index, sum] : drawn)
    sum = {std::sqrt(sum.error / kOneElementDraws),
           std::sqrt(sum.unfusedError / kOneElementDraws)};
  return drawn;
}

/// The line under the table for each result judged over several draws.
static void printDrawnNotes(const llvm::DenseMap<size_t, DrawnErrors> &drawn,
                            unsigned seed) {
  SmallVector<size_t> indices(llvm::make_first_range(drawn));
  llvm::sort(indices);
  for (size_t index : indices)
    llvm::outs() << llvm::formatv(
        "  #{0}: one element; its errors are the root mean square over {1} "
        "input draws (seeds {2} to {3})\n",
        index, kOneElementDraws, seed, seed + kOneElementDraws - 1);
}

/// Runs `runDraw` on `inputs` (and, for results of one element, on more
/// draws), prints `title` and the table of checkAgainstReference for
/// `program`, and moves the checked program's results of `inputs` into
/// `checked`. Returns the exit code.
static int checkOverDraws(
    StringRef title, StringRef program, StringRef column,
    ArrayRef<HostTensor> inputs, ArrayRef<InputSpec> specs, unsigned seed,
    llvm::function_ref<llvm::Expected<DrawOutputs>(ArrayRef<HostTensor>)>
        runDraw,
    std::vector<HostTensor> &checked) {
  auto first = runDraw(inputs);
  if (!first)
    return fail(llvm::toString(first.takeError()));
  auto drawn = drawOneElementErrors(*first, specs, seed, runDraw);
  if (!drawn)
    return fail(llvm::toString(drawn.takeError()));
  llvm::outs() << title << "\n";
  int status = checkAgainstReference(program, column, (*first)[0], (*first)[1],
                                     (*first)[2], &*drawn);
  printDrawnNotes(*drawn, seed);
  checked = std::move((*first)[0]);
  return status;
}

/// The check of --compare-with-unfused; returns the exit code. With drawn
/// inputs (`specs`), results of one element are judged over
/// kOneElementDraws draws (drawOneElementErrors).
static int compareWithUnfused(ModuleOp module, const RunOptions &options,
                              ArrayRef<HostTensor> inputs,
                              ArrayRef<InputSpec> specs) {
  OwningOpRef<ModuleOp> fused = module.clone();
  if (failed(fuse(*fused)))
    return fail("the fusion pipeline failed on @" + options.entry);
  auto compile = [&](ModuleOp program, bool computeInF64) {
    return CpuFunction::compile(program, options.entry, computeInF64);
  };
  FailureOr<std::unique_ptr<CpuFunction>> fusedFunction =
      compile(*fused, false);
  FailureOr<std::unique_ptr<CpuFunction>> unfusedFunction =
      compile(module, false);
  FailureOr<std::unique_ptr<CpuFunction>> referenceFunction =
      compile(module, true);
  if (failed(fusedFunction) || failed(unfusedFunction) ||
      failed(referenceFunction))
    return fail("cannot compile @" + options.entry + " for the CPU");

  // Each draw's results: fused, unfused, reference.
  auto runAll = [&](ArrayRef<HostTensor> draw) -> llvm::Expected<DrawOutputs> {
    DrawOutputs all;
    for (auto [outputs, function] :
         llvm::zip_equal(all, std::array<CpuFunction *, 3>{
                                  fusedFunction->get(), unfusedFunction->get(),
                                  referenceFunction->get()})) {
      auto run = function->run(draw);
      if (!run)
        return run.takeError();
      outputs = std::move(*run);
    }
    return all;
  };
  std::vector<HostTensor> fusedOutputs;
  int status = checkOverDraws(
      "@" + options.entry +
          ": fused vs unfused, both against the unfused program in f64",
      "the fused program", "fused error", inputs, specs, options.seed, runAll,
      fusedOutputs);
  return dumpIfAsked(options, fusedOutputs, status);
}

/// Returns sum_i <a_i, b_i> over all elements of the tensors, in double.
static double dot(ArrayRef<HostTensor> a, ArrayRef<HostTensor> b) {
  double sum = 0;
  for (auto [x, y] : llvm::zip_equal(a, b))
    for (int64_t i = 0, e = x.getNumElements(); i < e; ++i)
      sum += x.get(i) * y.get(i);
  return sum;
}

/// The root mean square of `tensor`'s elements.
static double rms(const HostTensor &tensor) {
  double sum = 0;
  int64_t count = tensor.getNumElements();
  for (int64_t i = 0; i < count; ++i)
    sum += tensor.get(i) * tensor.get(i);
  return count ? std::sqrt(sum / count) : 0;
}

/// The gradients of a training pair: runs `@NAME_forward`, then
/// `@NAME_backward` on the inputs, the saved values and `cotangents`.
static llvm::Expected<std::vector<HostTensor>>
runTrainingPair(ModuleOp module, StringRef entry, unsigned numResults,
                bool computeInF64, ArrayRef<HostTensor> inputs,
                ArrayRef<HostTensor> cotangents) {
  auto forward =
      compileAndRun(module, (entry + "_forward").str(), computeInF64, inputs);
  if (!forward)
    return forward.takeError();
  std::vector<HostTensor> backwardInputs(inputs.begin(), inputs.end());
  backwardInputs.insert(backwardInputs.end(), forward->begin() + numResults,
                        forward->end());
  backwardInputs.insert(backwardInputs.end(), cotangents.begin(),
                        cotangents.end());
  return compileAndRun(module, (entry + "_backward").str(), computeInF64,
                       backwardInputs);
}

/// The check of --check-gradients; returns the exit code. The backward that
/// coda-generate-backward derives is checked in f64 against central finite
/// differences of the function along a random direction per argument, then
/// the fused training pair in the function's types against the unfused one
/// in f64, with the limit of --compare-with-unfused.
static int checkGradients(ModuleOp module, const RunOptions &options,
                          ArrayRef<HostTensor> inputs) {
  MLIRContext *context = module.getContext();
  OwningOpRef<ModuleOp> pair = module.clone();
  PassManager pm(context);
  CodaGenerateBackwardPassOptions backwardOptions;
  backwardOptions.functions = {options.entry};
  pm.addPass(createCodaGenerateBackwardPass(backwardOptions));
  if (failed(pm.run(*pair)))
    return fail("cannot generate the backward of @" + options.entry);
  auto function = pair->lookupSymbol<func::FuncOp>(options.entry);
  auto backward = pair->lookupSymbol<func::FuncOp>(options.entry + "_backward");
  unsigned numResults = function.getNumResults();

  // One cotangent per result, drawn like activations.
  int64_t rows = -1;
  for (auto [type, input] :
       llvm::zip_equal(function.getArgumentTypes(), inputs))
    if (auto tensor = dyn_cast<RankedTensorType>(type);
        tensor && tensor.getRank() > 0 && tensor.isDynamicDim(0))
      rows = input.getShape()[0];
  SmallVector<InputSpec> cotangentSpecs;
  for (Type type : function.getResultTypes()) {
    auto tensor = cast<RankedTensorType>(type);
    InputSpec spec{*getElementKind(tensor.getElementType()),
                   SmallVector<int64_t>(tensor.getShape()),
                   InputRole::Activation};
    if (!spec.shape.empty() && ShapedType::isDynamic(spec.shape[0]))
      spec.shape[0] = rows;
    cotangentSpecs.push_back(spec);
  }
  std::vector<HostTensor> cotangents =
      generateInputs(cotangentSpecs, options.seed + 1);

  auto reference = runTrainingPair(*pair, options.entry, numResults,
                                   /*computeInF64=*/true, inputs, cotangents);
  if (!reference)
    return fail(llvm::toString(reference.takeError()));

  // Finite differences of L(x) = sum_i <cotangent_i, f_i(x)> in f64.
  FailureOr<std::unique_ptr<CpuFunction>> inF64 =
      CpuFunction::compile(*pair, options.entry, /*computeInF64=*/true);
  if (failed(inF64))
    return fail("cannot compile @" + options.entry + " for the CPU");
  std::vector<HostTensor> base;
  for (const HostTensor &input : inputs)
    base.push_back(isFloatKind(input.getKind())
                       ? input.convertedTo(ElementKind::F64)
                       : input);
  constexpr double kFiniteDifferenceLimit = 1e-6;
  llvm::outs() << "@" << options.entry
               << ": gradients in f64 against central finite differences "
                  "along a random direction\n";
  llvm::outs() << llvm::format("  %-9s %-28s %14s %14s %11s %9s\n", "argument",
                               "type", "<g, v>", "finite diff", "err/|g||v|",
                               "limit");
  int status = 0;
  for (unsigned index = 0; index < backward.getNumResults(); ++index) {
    auto argument = static_cast<unsigned>(
        backward.getResultAttrOfType<IntegerAttr>(index, "coda.gradient_of")
            .getInt());
    const HostTensor &x = base[argument];
    InputSpec directionSpec{ElementKind::F64,
                            SmallVector<int64_t>(x.getShape()),
                            InputRole::Activation};
    HostTensor direction =
        generateInputs(directionSpec, options.seed + 2 + argument).front();
    double epsilon = 1e-5 * std::max(rms(x), 1e-3);
    auto lossAt = [&](double step) -> llvm::Expected<double> {
      std::vector<HostTensor> moved = base;
      for (int64_t i = 0, e = x.getNumElements(); i < e; ++i)
        moved[argument].set(i, x.get(i) + step * direction.get(i));
      auto outputs = (*inF64)->run(moved);
      if (!outputs)
        return outputs.takeError();
      return dot(*outputs, cotangents);
    };
    auto plus = lossAt(epsilon);
    if (!plus)
      return fail(llvm::toString(plus.takeError()));
    auto minus = lossAt(-epsilon);
    if (!minus)
      return fail(llvm::toString(minus.takeError()));
    double finite = (*plus - *minus) / (2 * epsilon);
    double analytic = dot((*reference)[index], direction);
    // Scaled by |g| |v|, the bound of <g, v>, so that a directional
    // derivative that cancels to a small value is not held to more digits
    // than its terms carry; by the finite difference where that is larger
    // (the two disagree then), so that a zero gradient against a nonzero
    // difference is an error of 1, not of 1 / 1e-300.
    double scale =
        std::max(std::sqrt(dot((*reference)[index], (*reference)[index]) *
                           dot(direction, direction)),
                 std::abs(finite));
    double error = std::abs(finite - analytic) / std::max(scale, 1e-300);
    bool ok = error <= kFiniteDifferenceLimit;
    llvm::outs() << llvm::format(
        "  #%-8u %-28s %14.6e %14.6e %11.3e %9.1e  %s\n", argument,
        (*reference)[index].getTypeString().c_str(), analytic, finite, error,
        kFiniteDifferenceLimit, ok ? "ok" : "FAIL");
    if (!ok)
      status = fail("the gradient of argument #" + llvm::Twine(argument) +
                    " differs from finite differences by " +
                    llvm::formatv("{0:e3}", error).str() + ", past " +
                    llvm::formatv("{0:e1}", kFiniteDifferenceLimit).str());
  }

  // The fused pair in the function's own types.
  OwningOpRef<ModuleOp> fused = pair->clone();
  if (failed(fuse(*fused)))
    return fail("the fusion pipeline failed on the training pair of @" +
                options.entry);
  auto unfused = runTrainingPair(*pair, options.entry, numResults,
                                 /*computeInF64=*/false, inputs, cotangents);
  if (!unfused)
    return fail(llvm::toString(unfused.takeError()));
  auto fusedGradients =
      runTrainingPair(*fused, options.entry, numResults,
                      /*computeInF64=*/false, inputs, cotangents);
  if (!fusedGradients)
    return fail(llvm::toString(fusedGradients.takeError()));
  llvm::outs() << "@" << options.entry
               << "_backward: fused vs unfused, both against the unfused "
                  "backward in f64 (result #i: the gradient of the argument "
                  "in the table above, in order)\n";
  int fusedStatus =
      checkAgainstReference("the fused backward", "fused error",
                            *fusedGradients, *unfused, *reference);
  return status ? status : fusedStatus;
}

/// Runs the entry with --device cuda: prints (or, with
/// --compare-with-reference, checks) and dumps the results, then times
/// launches with --bench. Returns the exit code.
static int runOnCuda(ModuleOp module, const RunOptions &options,
                     ArrayRef<HostTensor> inputs, ArrayRef<InputSpec> specs) {
#ifdef CODA_HAVE_CUDA_RUNNER
  auto function = CudaFunction::compile(module, options.entry);
  if (!function)
    return fail(llvm::toString(function.takeError()));

  int status = 0;
  std::vector<HostTensor> outputs;
  if (options.compareWithReference) {
    // Each draw's results: CUDA, unfused, reference; results of one
    // element judged over several draws, as --compare-with-unfused does.
    auto runAll =
        [&](ArrayRef<HostTensor> draw) -> llvm::Expected<DrawOutputs> {
      DrawOutputs all;
      auto cuda = (*function)->run(draw);
      if (!cuda)
        return cuda.takeError();
      all[0] = std::move(*cuda);
      if (llvm::Error error =
              runReference(module, options.entry, draw, all[1], all[2]))
        return std::move(error);
      return all;
    };
    status = checkOverDraws("@" + options.entry +
                                ": CUDA vs the unfused CPU program, both "
                                "against the unfused program in f64",
                            "the CUDA run", "cuda error", inputs, specs,
                            options.seed, runAll, outputs);
  } else {
    auto run = (*function)->run(inputs);
    if (!run)
      return fail(llvm::toString(run.takeError()));
    outputs = std::move(*run);
    printOutputs(outputs);
  }
  status = dumpIfAsked(options, outputs, status);
  if (status != 0 || !options.bench)
    return status;

  llvm::Expected<double> median =
      (*function)->benchmark(options.benchIterations);
  if (!median)
    return fail(llvm::toString(median.takeError()));
  llvm::outs() << llvm::format("@%s: median %.4f ms over %u launches (CUDA "
                               "events)\n",
                               options.entry.c_str(), *median,
                               options.benchIterations);
  return 0;
#else
  (void)module;
  (void)options;
  (void)inputs;
  (void)specs;
  return fail("--device cuda is not available: coda-run was built without "
              "the CODA runtime (no cuda.h when it was configured)");
#endif
}

int mlir::coda::codaRunMain(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  llvm::cl::OptionCategory category("coda-run options");
  llvm::cl::opt<std::string> file(llvm::cl::Positional, llvm::cl::Required,
                                  llvm::cl::desc("<input .mlir>"),
                                  llvm::cl::cat(category));
  llvm::cl::opt<std::string> entry("entry", llvm::cl::Required,
                                   llvm::cl::desc("The function to run"),
                                   llvm::cl::cat(category));
  llvm::cl::opt<std::string> device(
      "device", llvm::cl::init("cpu"),
      llvm::cl::desc("Where to run: cpu (the reference path) or cuda (PTX "
                     "through the CODA runtime on CUDA device 0)"),
      llvm::cl::cat(category));
  llvm::cl::opt<std::string> inputsDir(
      "inputs", llvm::cl::desc("Read argument i from DIR/arg<i>.npy"),
      llvm::cl::value_desc("DIR"), llvm::cl::cat(category));
  llvm::cl::opt<uint64_t> seed("seed", llvm::cl::init(0),
                               llvm::cl::desc("Seed of the generated inputs"),
                               llvm::cl::cat(category));
  llvm::cl::opt<int64_t> rows(
      "rows", llvm::cl::init(-1),
      llvm::cl::desc("Row count of arguments with a dynamic row count (at "
                     "least 1; the drawn arguments must fit in memory)"),
      llvm::cl::cat(category));
  llvm::cl::opt<bool> compareUnfused(
      "compare-with-unfused",
      llvm::cl::desc("cpu: also run the fused program and check it against "
                     "the unfused one in f64; exit 1 past max(1e-5, 2 x the "
                     "unfused program's own error), for a result of one "
                     "element over 8 input draws"),
      llvm::cl::cat(category));
  llvm::cl::opt<bool> compareReference(
      "compare-with-reference",
      llvm::cl::desc("cuda: also run the unfused program on the CPU and "
                     "check the CUDA results against it in f64, with the "
                     "limit of --compare-with-unfused (a result of one "
                     "element over 8 input draws)"),
      llvm::cl::cat(category));
  llvm::cl::opt<bool> checkGradientsFlag(
      "check-gradients",
      llvm::cl::desc("cpu: derive the backward (coda-generate-backward), "
                     "check it in f64 against finite differences, and the "
                     "fused backward against the unfused one in f64; exit 1 "
                     "past the limits"),
      llvm::cl::cat(category));
  llvm::cl::opt<bool> bench(
      "bench",
      llvm::cl::desc("cuda: after the run and a warm-up launch, time "
                     "--bench-iterations launches with CUDA events and print "
                     "the median"),
      llvm::cl::cat(category));
  llvm::cl::opt<unsigned> benchIterations(
      "bench-iterations", llvm::cl::init(20),
      llvm::cl::desc("The launches --bench times (at least 1)"),
      llvm::cl::cat(category));
  llvm::cl::opt<std::string> dump(
      "dump-outputs", llvm::cl::desc("Write output i to DIR/result<i>.npy"),
      llvm::cl::value_desc("DIR"), llvm::cl::cat(category));
  llvm::cl::HideUnrelatedOptions(category);
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "coda-run: run a coda function on the CPU reference path or on a CUDA "
      "GPU (docs/Running.md)\n");

  RunOptions options{file,
                     entry,
                     device,
                     inputsDir,
                     seed,
                     rows,
                     compareUnfused,
                     compareReference,
                     checkGradientsFlag,
                     bench,
                     benchIterations,
                     dump};
  bool onCuda = options.device == "cuda";
  if (!onCuda && options.device != "cpu")
    return fail("--device " + options.device +
                " is not available: coda-run runs on cpu or cuda");
  if (onCuda && options.compareWithUnfused)
    return fail("--compare-with-unfused runs on the cpu; with --device cuda "
                "use --compare-with-reference");
  if (onCuda && options.checkGradients)
    return fail("--check-gradients runs on the cpu");
  if (options.checkGradients && options.compareWithUnfused)
    return fail("--check-gradients and --compare-with-unfused are separate "
                "checks; run one at a time");
  if (!onCuda && (options.compareWithReference || options.bench))
    return fail(
        llvm::Twine(options.bench ? "--bench" : "--compare-with-reference") +
        " needs --device cuda");
  if (options.benchIterations == 0)
    return fail("--bench-iterations must be at least 1");
  if (rows.getNumOccurrences() && options.rows < 1)
    return fail("--rows must be at least 1, got " + llvm::Twine(options.rows));
  if (!options.inputs.empty() && options.rows >= 0)
    return fail("--rows sets the size of generated inputs; with --inputs the "
                "files set it");

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  // A diagnostic names its line; the op's generic form adds nothing for the
  // user of a tool that runs whole functions.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(options.file, sourceMgr, &context);
  if (!module)
    return 1;
  auto func = module->lookupSymbol<func::FuncOp>(options.entry);
  if (!func || func.isExternal()) {
    std::string names;
    for (auto candidate : module->getOps<func::FuncOp>())
      if (!candidate.isExternal())
        names += (names.empty() ? "@" : ", @") + candidate.getSymName().str();
    return fail("no function @" + options.entry + " in " + options.file +
                (names.empty() ? "" : " (it has " + names + ")"));
  }

  bool dynamicRows = llvm::any_of(func.getArgumentTypes(), [](Type type) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && tensor.getRank() > 0 && tensor.isDynamicDim(0);
  });
  if (options.inputs.empty() && dynamicRows && options.rows < 0)
    return fail("@" + options.entry +
                " has arguments with a dynamic row count: pass --rows M (or "
                "--inputs DIR)");
  FailureOr<SmallVector<Argument>> arguments = describeArguments(
      func, std::max<int64_t>(options.rows, 0), !options.inputs.empty());
  if (failed(arguments))
    return 1;

  // The specs of drawn inputs; none when they come from files.
  std::vector<HostTensor> inputs;
  SmallVector<InputSpec> specs;
  if (!options.inputs.empty()) {
    auto read = readInputs(options.inputs, *arguments);
    if (!read)
      return fail(llvm::toString(read.takeError()));
    inputs = std::move(*read);
  } else {
    for (const Argument &argument : *arguments)
      specs.push_back(argument.spec);
    if (failed(checkInputsFit(func, specs, options.rows)))
      return 1;
    inputs = generateInputs(specs, options.seed);
  }

  if (onCuda)
    return runOnCuda(*module, options, inputs, specs);
  if (options.compareWithUnfused)
    return compareWithUnfused(*module, options, inputs, specs);
  if (options.checkGradients)
    return checkGradients(*module, options, inputs);

  auto outputs = compileAndRun(*module, options.entry, false, inputs);
  if (!outputs)
    return fail(llvm::toString(outputs.takeError()));
  printOutputs(*outputs);
  return dumpIfAsked(options, *outputs, 0);
}
