//===- LaunchPlan.h - the launch plan, as the runtime reads it --*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The data model of what lib/Target/PTX/LaunchPlan.cpp writes (see
// docs/Pipeline.md, "The launch plan"), checked when it is read so that a
// launch never meets a dangling name or a shape it cannot size. The plan
// carries no weight layout step, so neither does this model.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNTIME_LAUNCHPLAN_H
#define CODA_RUNTIME_LAUNCHPLAN_H

#include "Status.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace coda::runtime {

enum class ElementType { BF16, F16, F32, I32, I64 };
/// Every element type, in the enum's order.
inline constexpr ElementType kElementTypes[] = {
    ElementType::BF16, ElementType::F16, ElementType::F32, ElementType::I32,
    ElementType::I64};

/// The type's size in bytes.
size_t getElementSize(ElementType type);
/// The type's name in the plan: "bf16", "f16", "f32", "i32", "i64".
const char *getElementTypeName(ElementType type);

/// A row count in the plan, for the function's row count M: a static count
/// when not negative, else -B for ceil(M / B) (-1 for M itself, -16 for the
/// per-16-row partials of a sum over rows).
inline int64_t resolveRows(int64_t count, int64_t functionRows) {
  return count >= 0 ? count : (functionRows - count - 1) / -count;
}

/// A tensor of the function: an argument, a result or an intermediate.
struct Buffer {
  std::string name;
  ElementType type;
  /// Row-major sizes; only the first can be negative, a count of M's rows
  /// (resolveRows).
  std::vector<int64_t> shape;
  CodaBufferRole role;
  /// The buffer this one is a view of (an alias step), or its own index.
  size_t viewOf;
  /// Its memory: an index into Function::storages.
  size_t storage;
  /// Whether a kernel reads it through a tensor map.
  bool tensorMapped = false;

  bool isDynamic() const { return !shape.empty() && shape[0] < 0; }
  /// Its first dimension for row count `rows` (1 for a scalar).
  int64_t getRows(int64_t rows) const;
  /// Its size in bytes for row count `rows`; false on overflow.
  bool getBytes(int64_t rows, uint64_t &bytes) const;
};

/// The memory of a buffer and its views, which alias steps make one.
struct Storage {
  std::vector<size_t> buffers;
  /// 16 when a member is read through a tensor map, else the largest
  /// element size of its members.
  uint64_t alignment = 1;
  /// No member is an argument or a result: the workspace provides it.
  bool fromWorkspace = true;
};

/// A CUtensorMap over a [rows, columns] buffer, read in boxes.
struct TensorMapArgument {
  size_t buffer;
  uint32_t boxColumns;
  uint32_t boxRows;
};
/// A row count as an i32 (resolveRows): -1 for the function's M (a GEMM's
/// output rows, or a weight gradient's reduction length), -B for
/// ceil(M / B), else a static count.
struct RowsArgument {
  int64_t rows;
  int64_t resolve(int64_t functionRows) const {
    return resolveRows(rows, functionRows);
  }
};
/// A buffer's device address.
struct BufferArgument {
  size_t buffer;
};
/// Device memory of `bytes` that the kernel keeps from launch to launch
/// (a split weight gradient's counters and partials), zeroed once before
/// the first launch.
struct ScratchArgument {
  uint64_t bytes;
};
using KernelArgument = std::variant<TensorMapArgument, RowsArgument,
                                    BufferArgument, ScratchArgument>;

/// A kernel launch. Over R rows its tile grid is ceil(R / rowsPerTile) x
/// tilesN; a persistent kernel runs on min(tiles x splits, SMs) CTAs, any
/// other on the tile grid.
struct Kernel {
  std::string name;
  /// Its row count (resolveRows).
  int64_t rows;
  uint32_t block;
  uint32_t sharedBytes;
  int64_t rowsPerTile;
  int64_t tilesN;
  bool persistent;
  /// Whether it waits for the grids before it before touching memory, so
  /// that it may be launched while they finish.
  bool dependentLaunch = false;
  /// The units per tile of a weight gradient split over its rows.
  int64_t splits = 1;
  std::vector<KernelArgument> arguments;
  /// A GEMM's kernel of 128 x 256 tiles beside this one of 256 x 128, over
  /// the same buffers (plan field "wide"): launched instead of this one
  /// where its tiles fill fewer rounds of min(tiles x splits, SMs) CTAs.
  std::shared_ptr<const Kernel> wide;

  /// The rows it runs over for row count `rows`.
  int64_t getRows(int64_t rows) const { return resolveRows(this->rows, rows); }
};

/// A reshape: `result` is `source`'s memory.
struct Alias {
  size_t result;
  size_t source;
};

/// An op no kernel runs (attention), left to the caller.
struct Boundary {
  std::string op;
  std::vector<size_t> operands;
  std::vector<size_t> results;
};

using Step = std::variant<Kernel, Alias, Boundary>;

/// One compiled function.
struct Function {
  std::string name;
  std::vector<Buffer> buffers;
  std::vector<Storage> storages;
  /// The buffers of the function's results, in order.
  std::vector<size_t> results;
  std::vector<Step> steps;
  size_t kernelCount = 0;
  bool hasBoundary = false;
  /// The row count of a plan without -1 (its kernels' largest `rows`).
  std::optional<int64_t> staticRows;
  /// The row count M that static shapes fix in a plan with -1 (plan field
  /// "fixed_rows"), and the op that fixes it ("fixed_rows_by", e.g.
  /// "coda.scale at f.mlir:2:8"; may be empty).
  std::optional<int64_t> fixedRows;
  std::string fixedRowsBy;

  /// The only row count the function runs over: staticRows or fixedRows.
  std::optional<int64_t> getRequiredRows() const {
    return staticRows ? staticRows : fixedRows;
  }

  /// The index of the buffer named `name`.
  std::optional<size_t> findBuffer(std::string_view name) const;
  /// As findBuffer; fails with CodaErrorUnknownBuffer.
  Status getBuffer(std::string_view name, size_t &index) const;
  /// Fails with CodaErrorInvalidRows unless the function runs over `rows`.
  Status checkRows(int64_t rows) const;
  /// Storage `storage`'s size in bytes for row count `rows` (the largest
  /// of its members'); false on overflow.
  bool getStorageBytes(size_t storage, int64_t rows, uint64_t &bytes) const;
};

/// The GPU architecture the kernels were compiled for, e.g. sm_90a.
struct Target {
  std::string name;
  int major = 0;
  int minor = 0;
  /// The "a" suffix: features of exactly this compute capability.
  bool archSpecific = false;
};

struct LaunchPlan {
  Target target;
  std::vector<Function> functions;
};

/// Reads and checks the plan JSON in `text`; `source` names it in
/// messages. Fails with CodaErrorInvalidPlan, naming the byte offset and,
/// past the syntax, the field.
Status parseLaunchPlan(std::string_view text, const std::string &source,
                       LaunchPlan &plan);

} // namespace coda::runtime

#endif // CODA_RUNTIME_LAUNCHPLAN_H
