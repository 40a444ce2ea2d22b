//===- LaunchPlan.cpp - the launch plan, as the runtime reads it ----------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LaunchPlan.h"

#include "Json.h"

#include <algorithm>
#include <charconv>
#include <climits>
#include <iterator>
#include <numeric>

using namespace coda::runtime;

size_t coda::runtime::getElementSize(ElementType type) {
  switch (type) {
  case ElementType::BF16:
  case ElementType::F16:
    return 2;
  case ElementType::F32:
  case ElementType::I32:
    return 4;
  case ElementType::I64:
    return 8;
  }
  return 0;
}

const char *coda::runtime::getElementTypeName(ElementType type) {
  switch (type) {
  case ElementType::BF16:
    return "bf16";
  case ElementType::F16:
    return "f16";
  case ElementType::F32:
    return "f32";
  case ElementType::I32:
    return "i32";
  case ElementType::I64:
    return "i64";
  }
  return "";
}

int64_t Buffer::getRows(int64_t rows) const {
  if (shape.empty())
    return 1;
  return resolveRows(shape[0], rows);
}

bool Buffer::getBytes(int64_t rows, uint64_t &bytes) const {
  bytes = getElementSize(type);
  for (size_t i = 0; i < shape.size(); ++i) {
    uint64_t size = uint64_t(i == 0 ? getRows(rows) : shape[i]);
    if (__builtin_mul_overflow(bytes, size, &bytes))
      return false;
  }
  return true;
}

std::optional<size_t> Function::findBuffer(std::string_view name) const {
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].name == name)
      return i;
  return std::nullopt;
}

Status Function::getBuffer(std::string_view name, size_t &index) const {
  std::optional<size_t> found = findBuffer(name);
  if (!found)
    return Status(CodaErrorUnknownBuffer, "function '" + this->name +
                                              "' has no buffer named '" +
                                              std::string(name) + "'");
  index = *found;
  return Status();
}

Status Function::checkRows(int64_t rows) const {
  std::string prefix =
      "row count " + std::to_string(rows) + " for function '" + name + "': ";
  if (rows < 1)
    return Status(CodaErrorInvalidRows, prefix + "must be at least 1");
  if (rows > INT32_MAX)
    return Status(CodaErrorInvalidRows,
                  prefix + "kernels take it as an i32, at most " +
                      std::to_string(INT32_MAX));
  if (staticRows && rows != *staticRows)
    return Status(CodaErrorInvalidRows,
                  prefix + "the plan has no -1 and runs over " +
                      std::to_string(*staticRows) + " rows only");
  if (fixedRows && rows != *fixedRows)
    return Status(CodaErrorInvalidRows,
                  prefix + "a static shape fixes it at " +
                      std::to_string(*fixedRows) + " rows" +
                      (fixedRowsBy.empty() ? "" : " (" + fixedRowsBy + ")"));
  return Status();
}

bool Function::getStorageBytes(size_t storage, int64_t rows,
                               uint64_t &bytes) const {
  bytes = 0;
  for (size_t member : storages[storage].buffers) {
    uint64_t memberBytes;
    if (!buffers[member].getBytes(rows, memberBytes))
      return false;
    bytes = std::max(bytes, memberBytes);
  }
  return true;
}

namespace {

using json::Value;

/// Reads one plan, tracking the path of each value for its messages.
class PlanReader {
public:
  explicit PlanReader(const std::string &source) : source(source) {}

  Status readPlan(const Value &root, LaunchPlan &plan);

private:
  Status error(const Value &at, const std::string &path,
               const std::string &message) const {
    return Status(CodaErrorInvalidPlan,
                  "launch plan '" + source + "': " + path + ": " + message +
                      " (at byte " + std::to_string(at.offset) + ")");
  }

  Status expectKind(const Value &value, const std::string &path,
                    Value::Kind kind) const {
    if (value.kind == kind)
      return Status();
    return error(value, path,
                 std::string("expected ") + json::describe(kind) + ", got " +
                     json::describe(value.kind));
  }

  /// The member `key` of `object`, which must be there.
  Status getField(const Value &object, const std::string &path,
                  std::string_view key, const Value *&field) const {
    field = object.get(key);
    if (!field)
      return error(object, path, "missing field '" + std::string(key) + "'");
    return Status();
  }

  Status getString(const Value &object, const std::string &path,
                   std::string_view key, std::string &out) const {
    const Value *field;
    if (Status status = getField(object, path, key, field))
      return status;
    if (Status status = expectKind(*field, path + "." + std::string(key),
                                   Value::Kind::String))
      return status;
    out = field->string;
    return Status();
  }

  /// An integer in [min, max].
  Status getInteger(const Value &value, const std::string &path, int64_t min,
                    int64_t max, int64_t &out) const {
    if (Status status = expectKind(value, path, Value::Kind::Integer))
      return status;
    if (value.integer < min || value.integer > max)
      return error(value, path,
                   std::to_string(value.integer) + " is outside [" +
                       std::to_string(min) + ", " + std::to_string(max) + "]");
    out = value.integer;
    return Status();
  }

  Status getInteger(const Value &object, const std::string &path,
                    std::string_view key, int64_t min, int64_t max,
                    int64_t &out) const {
    const Value *field;
    if (Status status = getField(object, path, key, field))
      return status;
    return getInteger(*field, path + "." + std::string(key), min, max, out);
  }

  Status getArray(const Value &object, const std::string &path,
                  std::string_view key, const Value *&array) const {
    if (Status status = getField(object, path, key, array))
      return status;
    return expectKind(*array, path + "." + std::string(key),
                      Value::Kind::Array);
  }

  /// The index of the buffer `value` names.
  Status getBufferRef(const Value &value, const std::string &path,
                      const Function &function, size_t &buffer) const {
    if (Status status = expectKind(value, path, Value::Kind::String))
      return status;
    std::optional<size_t> index = function.findBuffer(value.string);
    if (!index)
      return error(value, path,
                   "no buffer named '" + value.string + "' in function '" +
                       function.name + "'");
    buffer = *index;
    return Status();
  }

  Status getBufferField(const Value &object, const std::string &path,
                        std::string_view key, const Function &function,
                        size_t &buffer) const {
    const Value *field;
    if (Status status = getField(object, path, key, field))
      return status;
    return getBufferRef(*field, path + "." + std::string(key), function,
                        buffer);
  }

  Status getBufferList(const Value &object, const std::string &path,
                       std::string_view key, const Function &function,
                       std::vector<size_t> &buffers) const {
    const Value *array;
    if (Status status = getArray(object, path, key, array))
      return status;
    for (size_t i = 0; i < array->elements.size(); ++i) {
      size_t buffer;
      if (Status status = getBufferRef(array->elements[i],
                                       path + "." + std::string(key) + "[" +
                                           std::to_string(i) + "]",
                                       function, buffer))
        return status;
      buffers.push_back(buffer);
    }
    return Status();
  }

  Status readTarget(const Value &root, Target &target) const;
  Status readBuffer(const Value &value, const std::string &path,
                    Buffer &buffer) const;
  Status readArgument(const Value &value, const std::string &path,
                      Function &function, const Kernel &kernel,
                      KernelArgument &argument) const;
  Status readKernel(const Value &value, const std::string &path,
                    Function &function, Kernel &kernel) const;
  Status readStep(const Value &value, const std::string &path,
                  Function &function, Step &step) const;
  Status readFunction(const Value &value, const std::string &path,
                      Function &function) const;

  const std::string &source;
};

} // namespace

Status PlanReader::readTarget(const Value &root, Target &target) const {
  if (Status status = getString(root, "$", "target", target.name))
    return status;
  // sm_<major><minor>, optionally with the arch-specific "a".
  std::string_view name = target.name;
  target.archSpecific = !name.empty() && name.back() == 'a';
  std::string_view digits =
      name.substr(0, name.size() - (target.archSpecific ? 1 : 0));
  int number = 0;
  bool valid =
      digits.size() >= 5 && digits.size() <= 6 && digits.substr(0, 3) == "sm_";
  if (valid) {
    auto [end, ec] = std::from_chars(digits.data() + 3,
                                     digits.data() + digits.size(), number);
    valid = ec == std::errc() && end == digits.data() + digits.size();
  }
  if (!valid)
    return error(*root.get("target"), "$.target",
                 "'" + target.name + "' is not a target of the form sm_90a");
  target.major = number / 10;
  target.minor = number % 10;
  return Status();
}

Status PlanReader::readBuffer(const Value &value, const std::string &path,
                              Buffer &buffer) const {
  if (Status status = expectKind(value, path, Value::Kind::Object))
    return status;
  if (Status status = getString(value, path, "name", buffer.name))
    return status;

  std::string type;
  if (Status status = getString(value, path, "type", type))
    return status;
  const ElementType *known =
      std::find_if(std::begin(kElementTypes), std::end(kElementTypes),
                   [&](ElementType candidate) {
                     return type == getElementTypeName(candidate);
                   });
  if (known == std::end(kElementTypes))
    return error(*value.get("type"), path + ".type",
                 "element type '" + type +
                     "' is not bf16, f16, f32, i32 or i64");
  buffer.type = *known;

  const Value *shape;
  if (Status status = getArray(value, path, "shape", shape))
    return status;
  for (size_t i = 0; i < shape->elements.size(); ++i) {
    std::string sizePath = path + ".shape[" + std::to_string(i) + "]";
    int64_t size;
    if (Status status = getInteger(shape->elements[i], sizePath, -INT32_MAX,
                                   INT64_MAX, size))
      return status;
    if (size < 0 && i != 0)
      return error(shape->elements[i], sizePath,
                   "only the first dimension can be negative, a count of "
                   "the function's rows");
    buffer.shape.push_back(size);
  }
  uint64_t bytes;
  if (!buffer.getBytes(1, bytes))
    return error(*shape, path + ".shape", "the buffer's size overflows");

  std::string role;
  if (Status status = getString(value, path, "role", role))
    return status;
  if (role == "argument")
    buffer.role = CodaBufferArgument;
  else if (role == "result")
    buffer.role = CodaBufferResult;
  else if (role == "workspace")
    buffer.role = CodaBufferWorkspace;
  else
    return error(*value.get("role"), path + ".role",
                 "role '" + role + "' is not argument, result or workspace");
  return Status();
}

Status PlanReader::readArgument(const Value &value, const std::string &path,
                                Function &function, const Kernel &kernel,
                                KernelArgument &argument) const {
  if (Status status = expectKind(value, path, Value::Kind::Object))
    return status;
  if (value.get("tensor_map")) {
    TensorMapArgument map;
    if (Status status =
            getBufferField(value, path, "tensor_map", function, map.buffer))
      return status;
    const Value *box;
    if (Status status = getArray(value, path, "box", box))
      return status;
    if (box->elements.size() != 2)
      return error(*box, path + ".box", "expected [columns, rows]");
    int64_t columns, rows;
    if (Status status =
            getInteger(box->elements[0], path + ".box[0]", 1, 256, columns))
      return status;
    if (Status status =
            getInteger(box->elements[1], path + ".box[1]", 1, 256, rows))
      return status;
    map.boxColumns = uint32_t(columns);
    map.boxRows = uint32_t(rows);

    // The tensor map is 2-D with a row pitch of whole 16-byte units.
    Buffer &buffer = function.buffers[map.buffer];
    if (buffer.shape.size() != 2)
      return error(*value.get("tensor_map"), path + ".tensor_map",
                   "buffer '" + buffer.name + "' has rank " +
                       std::to_string(buffer.shape.size()) +
                       "; a tensor map needs rank 2");
    uint64_t pitch = uint64_t(buffer.shape[1]) * getElementSize(buffer.type);
    if (pitch % 16 != 0)
      return error(*value.get("tensor_map"), path + ".tensor_map",
                   "buffer '" + buffer.name + "' has rows of " +
                       std::to_string(pitch) +
                       " bytes; a tensor map needs a multiple of 16");
    buffer.tensorMapped = true;
    argument = map;
    return Status();
  }
  if (value.get("rows")) {
    RowsArgument rows;
    if (Status status =
            getInteger(value, path, "rows", -INT32_MAX, INT32_MAX, rows.rows))
      return status;
    argument = rows;
    return Status();
  }
  if (value.get("buffer")) {
    BufferArgument buffer;
    if (Status status =
            getBufferField(value, path, "buffer", function, buffer.buffer))
      return status;
    argument = buffer;
    return Status();
  }
  if (value.get("scratch")) {
    int64_t bytes;
    if (Status status = getInteger(value, path, "scratch", 1, INT64_MAX, bytes))
      return status;
    argument = ScratchArgument{uint64_t(bytes)};
    return Status();
  }
  return error(value, path,
               "expected a 'tensor_map', 'rows', 'buffer' or 'scratch' "
               "argument");
}

Status PlanReader::readKernel(const Value &value, const std::string &path,
                              Function &function, Kernel &kernel) const {
  if (Status status = getString(value, path, "name", kernel.name))
    return status;
  int64_t block, sharedBytes;
  if (Status status =
          getInteger(value, path, "rows", -INT32_MAX, INT32_MAX, kernel.rows))
    return status;
  if (Status status = getInteger(value, path, "block", 1, 1024, block))
    return status;
  if (Status status =
          getInteger(value, path, "shared_bytes", 0, INT32_MAX, sharedBytes))
    return status;
  if (Status status = getInteger(value, path, "rows_per_tile", 1, INT32_MAX,
                                 kernel.rowsPerTile))
    return status;
  if (Status status =
          getInteger(value, path, "tiles_n", 1, INT32_MAX, kernel.tilesN))
    return status;
  kernel.block = uint32_t(block);
  kernel.sharedBytes = uint32_t(sharedBytes);

  const Value *persistent;
  if (Status status = getField(value, path, "persistent", persistent))
    return status;
  if (Status status =
          expectKind(*persistent, path + ".persistent", Value::Kind::Bool))
    return status;
  kernel.persistent = persistent->boolean;
  if (const Value *dependent = value.get("dependent_launch")) {
    if (Status status = expectKind(*dependent, path + ".dependent_launch",
                                   Value::Kind::Bool))
      return status;
    kernel.dependentLaunch = dependent->boolean;
  }
  if (value.get("splits"))
    if (Status status = getInteger(value, path, "splits", 1, 64, kernel.splits))
      return status;

  const Value *arguments;
  if (Status status = getArray(value, path, "arguments", arguments))
    return status;
  for (size_t i = 0; i < arguments->elements.size(); ++i) {
    KernelArgument argument;
    if (Status status =
            readArgument(arguments->elements[i],
                         path + ".arguments[" + std::to_string(i) + "]",
                         function, kernel, argument))
      return status;
    kernel.arguments.push_back(argument);
  }

  // A GEMM's kernel of wide tiles: persistent like this one, splitting
  // nothing (so it takes no scratch), with no kernel beside it in turn.
  if (const Value *wide = value.get("wide")) {
    std::string widePath = path + ".wide";
    if (Status status = expectKind(*wide, widePath, Value::Kind::Object))
      return status;
    if (wide->get("wide"))
      return Status(CodaErrorInvalidPlan,
                    widePath + ": a kernel of wide tiles has none beside it");
    auto wideKernel = std::make_shared<Kernel>();
    if (Status status = readKernel(*wide, widePath, function, *wideKernel))
      return status;
    if (!kernel.persistent || !wideKernel->persistent)
      return Status(CodaErrorInvalidPlan,
                    widePath + ": only a persistent kernel has a kernel of "
                               "wide tiles, and that one is persistent too");
    for (const KernelArgument &argument : wideKernel->arguments)
      if (std::holds_alternative<ScratchArgument>(argument))
        return Status(CodaErrorInvalidPlan,
                      widePath + ": a kernel of wide tiles splits nothing "
                                 "and takes no scratch");
    kernel.wide = std::move(wideKernel);
  }
  return Status();
}

Status PlanReader::readStep(const Value &value, const std::string &path,
                            Function &function, Step &step) const {
  if (Status status = expectKind(value, path, Value::Kind::Object))
    return status;
  if (value.get("name")) {
    Kernel kernel;
    if (Status status = readKernel(value, path, function, kernel))
      return status;
    ++function.kernelCount;
    step = std::move(kernel);
    return Status();
  }
  if (value.get("alias")) {
    Alias alias;
    if (Status status =
            getBufferField(value, path, "alias", function, alias.result))
      return status;
    if (Status status =
            getBufferField(value, path, "of", function, alias.source))
      return status;
    Buffer &result = function.buffers[alias.result];
    if (alias.result == alias.source || result.viewOf != alias.result)
      return error(*value.get("alias"), path + ".alias",
                   "buffer '" + result.name +
                       "' is already a view or the buffer itself");
    result.viewOf = alias.source;
    step = alias;
    return Status();
  }
  if (value.get("boundary")) {
    Boundary boundary;
    if (Status status = getString(value, path, "boundary", boundary.op))
      return status;
    if (Status status =
            getBufferList(value, path, "operands", function, boundary.operands))
      return status;
    if (Status status =
            getBufferList(value, path, "results", function, boundary.results))
      return status;
    function.hasBoundary = true;
    step = std::move(boundary);
    return Status();
  }
  return error(value, path,
               "expected a kernel ('name'), an alias step ('alias') or a "
               "boundary step ('boundary')");
}

/// Groups the buffers that alias steps join into storages.
static void assignStorages(Function &function) {
  std::vector<size_t> root(function.buffers.size());
  std::iota(root.begin(), root.end(), 0);
  auto find = [&](size_t buffer) {
    while (root[buffer] != buffer)
      buffer = root[buffer] = root[root[buffer]];
    return buffer;
  };
  for (const Step &step : function.steps)
    if (const auto *alias = std::get_if<Alias>(&step))
      root[find(alias->result)] = find(alias->source);

  std::vector<size_t> storageOfRoot(function.buffers.size(), SIZE_MAX);
  for (size_t i = 0; i < function.buffers.size(); ++i) {
    size_t &index = storageOfRoot[find(i)];
    if (index == SIZE_MAX) {
      index = function.storages.size();
      function.storages.emplace_back();
    }
    Buffer &buffer = function.buffers[i];
    Storage &storage = function.storages[index];
    buffer.storage = index;
    storage.buffers.push_back(i);
    storage.alignment =
        std::max<uint64_t>({storage.alignment, getElementSize(buffer.type),
                            buffer.tensorMapped ? uint64_t(16) : uint64_t(1)});
    storage.fromWorkspace &= buffer.role == CodaBufferWorkspace;
  }
}

Status PlanReader::readFunction(const Value &value, const std::string &path,
                                Function &function) const {
  if (Status status = expectKind(value, path, Value::Kind::Object))
    return status;
  if (Status status = getString(value, path, "name", function.name))
    return status;

  const Value *buffers;
  if (Status status = getArray(value, path, "buffers", buffers))
    return status;
  for (size_t i = 0; i < buffers->elements.size(); ++i) {
    std::string bufferPath = path + ".buffers[" + std::to_string(i) + "]";
    Buffer buffer;
    if (Status status = readBuffer(buffers->elements[i], bufferPath, buffer))
      return status;
    if (function.findBuffer(buffer.name))
      return error(buffers->elements[i], bufferPath,
                   "a second buffer named '" + buffer.name + "'");
    buffer.viewOf = i;
    function.buffers.push_back(std::move(buffer));
  }

  if (Status status =
          getBufferList(value, path, "results", function, function.results))
    return status;

  const Value *steps;
  if (Status status = getArray(value, path, "kernels", steps))
    return status;
  for (size_t i = 0; i < steps->elements.size(); ++i) {
    Step step;
    if (Status status = readStep(steps->elements[i],
                                 path + ".kernels[" + std::to_string(i) + "]",
                                 function, step))
      return status;
    function.steps.push_back(std::move(step));
  }
  assignStorages(function);

  // Without -1 anywhere the function has one row count.
  bool dynamic = std::any_of(function.buffers.begin(), function.buffers.end(),
                             [](const Buffer &b) { return b.isDynamic(); });
  int64_t largest = 0;
  for (const Step &step : function.steps)
    if (const auto *kernel = std::get_if<Kernel>(&step)) {
      dynamic |= kernel->rows < 0;
      largest = std::max(largest, kernel->rows);
    }
  if (!dynamic && function.kernelCount != 0)
    function.staticRows = largest;

  // The row count static shapes fix, and the op that fixes it.
  if (const Value *fixed = value.get("fixed_rows")) {
    int64_t rows;
    if (Status status =
            getInteger(value, path, "fixed_rows", 1, INT32_MAX, rows))
      return status;
    // A plan without -1 runs over its own rows: another fixed count would
    // leave no M to run over.
    if (function.staticRows && rows != *function.staticRows)
      return error(*fixed, path + ".fixed_rows",
                   std::to_string(rows) +
                       " contradicts the rows of a plan without -1, " +
                       std::to_string(*function.staticRows));
    function.fixedRows = rows;
  }
  if (value.get("fixed_rows_by"))
    if (Status status =
            getString(value, path, "fixed_rows_by", function.fixedRowsBy))
      return status;
  return Status();
}

Status PlanReader::readPlan(const Value &root, LaunchPlan &plan) {
  if (Status status = expectKind(root, "$", Value::Kind::Object))
    return status;
  if (Status status = readTarget(root, plan.target))
    return status;
  const Value *functions;
  if (Status status = getArray(root, "$", "functions", functions))
    return status;
  for (size_t i = 0; i < functions->elements.size(); ++i) {
    std::string path = "$.functions[" + std::to_string(i) + "]";
    Function function;
    if (Status status = readFunction(functions->elements[i], path, function))
      return status;
    for (const Function &other : plan.functions)
      if (other.name == function.name)
        return error(functions->elements[i], path,
                     "a second function named '" + function.name + "'");
    plan.functions.push_back(std::move(function));
  }
  return Status();
}

Status coda::runtime::parseLaunchPlan(std::string_view text,
                                      const std::string &source,
                                      LaunchPlan &plan) {
  json::Value root;
  json::ParseError error;
  if (!json::parse(text, root, error))
    return Status(CodaErrorInvalidPlan,
                  "launch plan '" + source + "' is not JSON: at byte " +
                      std::to_string(error.offset) + ": " + error.message);
  plan = LaunchPlan();
  return PlanReader(source).readPlan(root, plan);
}
