//===- LaunchPlan.cpp - the launch plan of compiled coda functions --------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The plan of a function:
//
//   {"name": "block",
//    "buffers": [{"name": "arg0", "type": "bf16", "shape": [-1, 2048],
//                 "role": "argument", "index": 0}, ...,
//                {"name": "t0", ..., "role": "workspace"}],
//    "results": ["t0", "t5"],
//    "kernels": [{"name": "block_gemm0", "block": 384, "persistent": true,
//                 "rows_per_tile": 128, "tiles_n": 16, "stages": 6,
//                 "schedule": "pingpong", "shared_bytes": 197632,
//                 "results": 3,
//                 "arguments": [{"tensor_map": "arg1", "box": [64, 256]},
//                               ..., {"rows": -1}, {"buffer": "arg0"}, ...],
//                 "rows": -1}]}
//
// A function whose static shapes fix its row count M has "fixed_rows": R,
// the only M it runs over, and "fixed_rows_by": "<op> at <file>:<line>:<col>"
// (the op alone without a source location), the first kernel op whose
// verifier makes values of M rows (-1) and of R rows one count: the `a`
// operands and matrix results (but per-block sums over rows) of a GEMM with
// a_layout "mk", the matrix operands and results of an elementwise kernel, a
// norm, norm statistics or a reduction of partials; an op that reduces over
// rows ties none. Over another M its kernels would be out of step with its
// shapes, so the runtime refuses it.
//
// A kernel runs over `rows` rows: -1 for the function's row count M, -B
// for ceil(M / B) (the per-16-row partials of a sum over rows), else
// a static count (a GEMM over a [1, K] operand, a weight gradient's static
// output rows, the blocks of a norm gradient's partials, the partials a
// sum over rows adds). With R those rows, a persistent kernel's grid is
// (min(ceil(R / rows_per_tile) x tiles_n, SMs), 1, 1), any other's
// (ceil(R / rows_per_tile), tiles_n, 1); with R = 0 nothing is launched.
// rows_per_tile = 2147483647 gives one tile row over any row count (a sum
// over all the rows of its operand).
// A GEMM's arguments start with its tensor maps: each product's A, each
// weight, then, where its tiles have more than 64 rows, each A again in
// 64-row boxes (those the last row tile loads for its slabs that hold rows).
// A kernel with "dependent_launch": true waits for the grids before it to
// finish (griddepcontrol.wait) before it touches a buffer, so it may be
// launched with programmatic stream serialization: placed on the SMs while
// the kernel before it ends.
// A `{"rows": ...}` argument is its own count as an i32, -1 for M (-B for
// ceil(M / B), as a buffer's first size): the rows
// a kernel reads, which a weight gradient and a norm gradient's partials
// reduce over. A kernel that splits its reductions ("splits": S, every
// tile's for a weight gradient, the last row tile's for another GEMM) runs
// up to S units per tile (its persistent grid is min(tiles x S, SMs)) and
// takes a last `{"scratch": bytes}` argument: device memory of that size,
// zeroed before its first launch and kept for the next ones. A workspace of
// partials has shape [-1, tiles_n]. An op no kernel runs (attention) is a step
// {"boundary": op name, "operands": [...], "results": [...]} for the caller.
//
//===----------------------------------------------------------------------===//

#include "coda/Target/PTX/LaunchPlan.h"

#include "coda/Conversion/CodaToGPU.h"
#include "coda/Dialect/Coda/IR/CodaOps.h"
#include "coda/Support/Locations.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::coda;

static std::string getTypeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return name;
}

/// The rows of `value` as the plan writes them: a static count, -1 for the
/// function's M, or -B for the ceil(M / B) rows of per-block sums over rows
/// that a GEMM's epilogue makes.
static int64_t getPlanRows(Value value) {
  int64_t rows = cast<RankedTensorType>(value.getType()).getDimSize(0);
  if (!ShapedType::isDynamic(rows))
    return rows;
  if (PartialSumRowsOp sums = getPartialSumRowsOf(value))
    return -static_cast<int64_t>(sums.getBlockRows());
  return -1;
}

static llvm::json::Array getShape(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  llvm::json::Array shape;
  for (auto [dim, size] : llvm::enumerate(type.getShape()))
    shape.push_back(dim == 0                      ? getPlanRows(value)
                    : ShapedType::isDynamic(size) ? -1
                                                  : size);
  return shape;
}

/// Whether `value` is a `[rows, columns]` tensor.
static bool isMatrix(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.getRank() == 2;
}

/// Whether `result` is a matrix result tiled over the kernel's rows: not a
/// per-block sum over rows, which has fewer rows than the tiles it sums.
static bool isTileResult(Value result) {
  return isMatrix(result) && !getPartialSumRowsOf(result);
}

/// The values of kernel op `op` whose verifier ties their rows to one count:
/// a GEMM's `a` operands and its matrix results but for per-block sums over
/// rows (none for a weight gradient, which reduces over the rows of its
/// operands), and the matrix operands and results of an elementwise kernel,
/// a norm, a norm's statistics and a reduction of partials. Ops that reduce
/// over rows (sums over rows, norm gradients' partials, cross entropy) have
/// none.
static SmallVector<Value> getRowTiedValues(Operation &op) {
  SmallVector<Value> tied;
  if (auto gemm = dyn_cast<GemmOp>(op)) {
    if (gemm.getALayout() != "mk")
      return tied;
    llvm::append_range(tied, llvm::make_filter_range(gemm.getA(), isMatrix));
    llvm::append_range(
        tied, llvm::make_filter_range(gemm.getResults(), isTileResult));
    return tied;
  }
  if (!isElementwiseKernelOp(&op) &&
      !isa<RMSNormOp, LayerNormOp, NormStatisticsOp, ReducePartialsOp>(op))
    return tied;
  llvm::append_range(tied, llvm::make_filter_range(op.getOperands(), isMatrix));
  llvm::append_range(tied, llvm::make_filter_range(op.getResults(), isMatrix));
  return tied;
}

/// The static row count R >= 1 that kernel op `op` ties the function's M
/// to: one of its row-tied values has M rows (-1), another R.
static std::optional<int64_t> getFixedRows(Operation &op) {
  bool hasM = false;
  std::optional<int64_t> fixed;
  for (Value value : getRowTiedValues(op)) {
    // -B, per-block partials, has no count to compare.
    int64_t rows = getPlanRows(value);
    if (rows == -1)
      hasM = true;
    else if (rows >= 1 && !fixed)
      fixed = rows;
  }
  if (!hasM)
    return std::nullopt;
  return fixed;
}

/// The entry of kernel `kernelName`, launched as `launch` says, that runs
/// `op` on the buffers `names` gives its operands and results: its
/// arguments in the kernel's parameter order, then the launch's fields.
/// `operandRows` is what its `rows` argument passes and `rowCount` the rows
/// its grid covers (-1 for M).
static llvm::json::Object
planKernel(Operation &op, StringRef kernelName, DictionaryAttr launch,
           const llvm::DenseMap<Value, std::string> &names, int64_t operandRows,
           int64_t rowCount) {
  llvm::json::Array arguments;
  auto bufferOf = [&](Value value) {
    return llvm::json::Object{{"buffer", names.lookup(value)}};
  };
  auto tensorMapOf = [&](Value value, int64_t boxRows) {
    return llvm::json::Object{{"tensor_map", names.lookup(value)},
                              {"box", llvm::json::Array{64, boxRows}}};
  };
  if (auto gemm = dyn_cast<GemmOp>(op)) {
    auto rows = cast<DenseI64ArrayAttr>(launch.get("tensor_map_rows"));
    // Each product's `a`, each weight, then, where the kernel loads the
    // slabs of a last row tile one by one, each `a` again.
    SmallVector<Value> mapped(gemm.getA());
    llvm::append_range(mapped, gemm.getB());
    if (rows.asArrayRef().size() > mapped.size())
      llvm::append_range(mapped, gemm.getA());
    for (auto [value, boxRows] : llvm::zip_equal(mapped, rows.asArrayRef()))
      arguments.push_back(tensorMapOf(value, boxRows));
    arguments.push_back(llvm::json::Object{{"rows", operandRows}});
    auto inputRows = launch.getAs<DenseI64ArrayAttr>("input_tensor_map_rows");
    for (auto [index, input] : llvm::enumerate(gemm.getInputs())) {
      int64_t boxRows = inputRows ? inputRows[index] : 0;
      arguments.push_back(boxRows ? tensorMapOf(input, boxRows)
                                  : bufferOf(input));
    }
  } else {
    arguments.push_back(llvm::json::Object{{"rows", operandRows}});
    for (Value operand : op.getOperands())
      arguments.push_back(bufferOf(operand));
  }
  auto resultRows = launch.getAs<DenseI64ArrayAttr>("result_tensor_map_rows");
  for (auto [index, result] : llvm::enumerate(op.getResults())) {
    int64_t boxRows = resultRows ? resultRows[index] : 0;
    arguments.push_back(boxRows ? tensorMapOf(result, boxRows)
                                : bufferOf(result));
  }
  if (auto scratch = launch.getAs<IntegerAttr>("scratch_bytes"))
    arguments.push_back(llvm::json::Object{{"scratch", scratch.getInt()}});

  llvm::json::Object entry{{"name", kernelName},
                           {"op", op.getName().getStringRef()},
                           {"results", int64_t(op.getNumResults())},
                           {"rows", rowCount},
                           {"arguments", std::move(arguments)}};
  for (NamedAttribute field : launch) {
    StringRef name = field.getName().getValue();
    // A BoolAttr is an i1 IntegerAttr too: test for it first.
    if (auto flag = dyn_cast<BoolAttr>(field.getValue()))
      entry[name] = flag.getValue();
    else if (auto value = dyn_cast<IntegerAttr>(field.getValue()))
      entry[name] = value.getInt();
    else if (auto text = dyn_cast<StringAttr>(field.getValue()))
      entry[name] = text.getValue();
  }
  return entry;
}

/// The plan of `func`.
static llvm::json::Object planFunction(func::FuncOp func) {
  llvm::DenseMap<Value, std::string> names;
  llvm::json::Array buffers;
  auto addBuffer = [&](Value value, std::string name, StringRef role,
                       std::optional<unsigned> index) {
    auto type = cast<RankedTensorType>(value.getType());
    llvm::json::Object buffer{{"name", name},
                              {"type", getTypeName(type.getElementType())},
                              {"shape", getShape(value)},
                              {"role", role}};
    if (index)
      buffer["index"] = int64_t(*index);
    buffers.push_back(std::move(buffer));
    names[value] = std::move(name);
  };
  for (BlockArgument arg : func.getArguments())
    addBuffer(arg, "arg" + std::to_string(arg.getArgNumber()), "argument",
              arg.getArgNumber());

  llvm::json::Array kernels;
  unsigned temporaries = 0;
  // The first kernel op that fixes M, and the count it fixes it at.
  Operation *fixedBy = nullptr;
  int64_t fixedRows = 0;
  for (Operation &op : func.getBody().front()) {
    if (isa<func::ReturnOp>(op))
      continue;
    auto kernel = op.getAttrOfType<SymbolRefAttr>("coda.kernel");
    auto launch = op.getAttrOfType<DictionaryAttr>("coda.launch");
    for (Value result : op.getResults())
      addBuffer(result, "t" + std::to_string(temporaries++), "workspace",
                std::nullopt);
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(op)) {
      // A reshape: the result is the operand's memory.
      kernels.push_back(
          llvm::json::Object{{"alias", names.lookup(op.getResult(0))},
                             {"of", names.lookup(op.getOperand(0))}});
      continue;
    }
    if (!kernel || !launch) {
      // An op no kernel runs (attention): the caller runs it between the
      // kernels, on these buffers.
      llvm::json::Array operands, results;
      for (Value operand : op.getOperands())
        operands.push_back(names.lookup(operand));
      for (Value result : op.getResults())
        results.push_back(names.lookup(result));
      kernels.push_back(
          llvm::json::Object{{"boundary", op.getName().getStringRef()},
                             {"operands", std::move(operands)},
                             {"results", std::move(results)}});
      continue;
    }
    if (!fixedBy)
      if (std::optional<int64_t> rows = getFixedRows(op)) {
        fixedBy = &op;
        fixedRows = *rows;
      }
    // Partials have one column per N-tile.
    if (isa<GemmOp>(op))
      for (llvm::json::Value &buffer :
           llvm::drop_begin(buffers, buffers.size() - op.getNumResults())) {
        llvm::json::Array &shape = *buffer.getAsObject()->getArray("shape");
        if (shape.size() == 2 && *shape[1].getAsInteger() == -1)
          shape[1] = cast<IntegerAttr>(launch.get(launch.get("partial_columns")
                                                      ? "partial_columns"
                                                      : "tiles_n"))
                         .getInt();
      }

    // The rows the kernel's grid covers (its first tile result's, else its
    // first operand's), and the rows its `rows` argument
    // passes (its first matrix operand's: those a weight gradient or a
    // norm gradient's partials reduce over); -1 for M.
    auto matrixOperands = llvm::make_filter_range(op.getOperands(), isMatrix);
    int64_t operandRows = getPlanRows(
        matrixOperands.empty() ? op.getOperand(0) : *matrixOperands.begin());
    auto tiles = llvm::make_filter_range(op.getResults(), isTileResult);
    int64_t rowCount = tiles.empty() ? getPlanRows(op.getOperand(0))
                                     : getPlanRows(*tiles.begin());
    llvm::json::Object entry =
        planKernel(op, kernel.getLeafReference().getValue(), launch, names,
                   operandRows, rowCount);
    // A GEMM's kernel of wide tiles beside it (coda.wide_launch, named by
    // its `name`) takes the same buffers.
    if (auto wide = op.getAttrOfType<DictionaryAttr>("coda.wide_launch"))
      entry["wide"] = planKernel(op, wide.getAs<StringAttr>("name").getValue(),
                                 wide, names, operandRows, rowCount);
    kernels.push_back(std::move(entry));
  }

  // Results are the returned buffers; a returned argument is returned as
  // it is.
  llvm::json::Array results;
  auto ret = cast<func::ReturnOp>(func.getBody().front().getTerminator());
  for (Value value : ret.getOperands()) {
    results.push_back(names.lookup(value));
    for (llvm::json::Value &buffer : buffers) {
      llvm::json::Object &object = *buffer.getAsObject();
      if (*object.getString("name") == names.lookup(value) &&
          *object.getString("role") == "workspace")
        object["role"] = "result";
    }
  }
  llvm::json::Object plan{{"name", func.getSymName()},
                          {"buffers", std::move(buffers)},
                          {"results", std::move(results)},
                          {"kernels", std::move(kernels)}};
  if (fixedBy) {
    std::string by = fixedBy->getName().getStringRef().str();
    std::string location = formatSourceLocation(fixedBy->getLoc());
    if (!location.empty())
      by += " at " + location;
    plan["fixed_rows"] = fixedRows;
    plan["fixed_rows_by"] = std::move(by);
  }
  return plan;
}

void mlir::coda::writeLaunchPlan(ModuleOp module, raw_ostream &os) {
  llvm::json::Array functions;
  // A declaration has nothing to launch.
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      functions.push_back(planFunction(func));
  os << llvm::formatv("{0:1}\n", llvm::json::Value(llvm::json::Object{
                                     {"target", "sm_90a"},
                                     {"functions", std::move(functions)}}));
}
