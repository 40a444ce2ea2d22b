//===- Image.cpp - a kernel image: PTX text or a cubin --------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Image.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string_view>
#include <vector>

using namespace coda::runtime;

namespace {

/// The tokens of PTX text: words (directives, identifiers, numbers), string
/// literals and single punctuation characters, without blanks or comments.
class PTXLexer {
public:
  explicit PTXLexer(std::string_view text) : text(text) {}

  /// The next token; empty at the end of the text.
  std::string_view next();

private:
  std::string_view text;
};

/// The parts of PTX text that are checked against a plan.
struct PTXSummary {
  /// The `.target`'s first operand, e.g. sm_90a.
  std::string_view target;
  /// The byte size of each parameter of each `.entry`, in order; 0 for a
  /// parameter whose size is not known.
  std::map<std::string_view, std::vector<uint64_t>> entries;
};

} // namespace

/// Whether `c` belongs to a PTX word: a directive, identifier or number.
static bool isWordCharacter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '%' || c == '.';
}

std::string_view PTXLexer::next() {
  while (!text.empty()) {
    if (text.front() == ' ' || text.front() == '\t' || text.front() == '\n' ||
        text.front() == '\r' || text.front() == '\f' || text.front() == '\v') {
      text.remove_prefix(1);
    } else if (text.substr(0, 2) == "//") {
      text.remove_prefix(std::min(text.size(), text.find('\n')));
    } else if (text.substr(0, 2) == "/*") {
      size_t end = text.find("*/", 2);
      text.remove_prefix(end == std::string_view::npos ? text.size() : end + 2);
    } else {
      break;
    }
  }
  if (text.empty())
    return {};
  size_t length = 1;
  if (isWordCharacter(text.front())) {
    while (length < text.size() && isWordCharacter(text[length]))
      ++length;
  } else if (text.front() == '"') {
    while (length < text.size() && text[length] != '"')
      length += text[length] == '\\' ? 2 : 1;
    length = std::min(length + 1, text.size());
  }
  std::string_view token = text.substr(0, length);
  text.remove_prefix(length);
  return token;
}

/// The size in bytes of a value of PTX fundamental type `type` (".u32"),
/// or 0 for another word.
static uint64_t getTypeSize(std::string_view type) {
  static const std::pair<std::string_view, uint64_t> kTypeSizes[] = {
      {".b8", 1},  {".u8", 1},  {".s8", 1},    {".b16", 2},    {".u16", 2},
      {".s16", 2}, {".f16", 2}, {".bf16", 2},  {".b32", 4},    {".u32", 4},
      {".s32", 4}, {".f32", 4}, {".f16x2", 4}, {".bf16x2", 4}, {".b64", 8},
      {".u64", 8}, {".s64", 8}, {".f64", 8},   {".b128", 16}};
  for (const auto &[name, size] : kTypeSizes)
    if (type == name)
      return size;
  return 0;
}

/// The size in bytes of the kernel parameter that `tokens` declare: its
/// type's size times its array's element count (`.param .u64 .ptr .align 1
/// name` has 8, `.param .align 64 .b8 name[128]` 128); 0 when they are not
/// a `.param` of a known size.
static uint64_t getParamSize(const std::vector<std::string_view> &tokens) {
  if (tokens.empty() || tokens.front() != ".param")
    return 0;
  uint64_t size = 0;
  for (size_t i = 1; i < tokens.size(); ++i) {
    if (!size) {
      size = getTypeSize(tokens[i]);
      continue;
    }
    if (tokens[i] != "[")
      continue;
    if (i + 2 >= tokens.size() || tokens[i + 2] != "]")
      return 0;
    std::string count(tokens[i + 1]);
    char *end = nullptr;
    uint64_t elements = std::strtoull(count.c_str(), &end, 0);
    if (end != count.c_str() + count.size() || !elements ||
        size > UINT64_MAX / elements)
      return 0;
    size *= elements;
    i += 2;
  }
  return size;
}

/// The `.target` and the `.entry`s of PTX text, with each entry's
/// parameters: those between the parentheses after its name, if any (of a
/// name declared twice, the last declaration's).
static PTXSummary scanPTX(std::string_view text) {
  PTXSummary summary;
  PTXLexer lexer(text);
  for (std::string_view token = lexer.next(); !token.empty();
       token = lexer.next()) {
    if (token == ".target") {
      summary.target = lexer.next();
      continue;
    }
    if (token != ".entry")
      continue;
    std::string_view name = lexer.next();
    if (name.empty())
      break;
    std::vector<uint64_t> &params = summary.entries[name];
    params.clear();
    PTXLexer after = lexer;
    if (after.next() != "(")
      continue;
    lexer = after;
    std::vector<std::string_view> param;
    int depth = 0;
    for (token = lexer.next(); !token.empty(); token = lexer.next()) {
      if (depth == 0 && (token == "," || token == ")")) {
        if (!param.empty() || token == ",")
          params.push_back(getParamSize(param));
        param.clear();
        if (token == ")")
          break;
        continue;
      }
      if (token == "(")
        ++depth;
      else if (token == ")")
        --depth;
      param.push_back(token);
    }
    if (token.empty())
      break;
  }
  return summary;
}

/// `count` and `noun`, plural unless `count` is 1.
static std::string countOf(size_t count, const std::string &noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

/// What launchKernel passes for `argument`, for messages.
static const char *describeArgument(const KernelArgument &argument) {
  if (std::holds_alternative<RowsArgument>(argument))
    return "a row count";
  if (std::holds_alternative<TensorMapArgument>(argument))
    return "a tensor map's address";
  if (std::holds_alternative<BufferArgument>(argument))
    return "a buffer's address";
  return "a scratch address";
}

/// Fails unless `kernel` of `function` is an entry of the PTX whose
/// parameters are those launchKernel passes for its plan arguments: an i32
/// for a row count, a 64-bit address for any other. `tall` is the kernel
/// whose wide tiles `kernel` has, if any.
static Status checkKernel(const PTXSummary &ptx, const std::string &source,
                          const Function &function, const Kernel &kernel,
                          const Kernel *tall) {
  std::string what = "kernel '" + kernel.name + "'";
  if (tall)
    what += " (the wide tiles of '" + tall->name + "')";
  what += " of function '" + function.name + "'";
  auto entry = ptx.entries.find(kernel.name);
  if (entry == ptx.entries.end())
    return Status(CodaErrorUnknownKernel,
                  what + " is not an entry of kernel image '" + source + "'");

  const std::string sameCompilation =
      "; the image and the plan must come from the same compilation";
  const std::vector<uint64_t> &params = entry->second;
  if (params.size() != kernel.arguments.size())
    return Status(CodaErrorInvalidImage,
                  what + " takes " + countOf(params.size(), "parameter") +
                      " in kernel image '" + source + "' but its plan passes " +
                      countOf(kernel.arguments.size(), "argument") +
                      sameCompilation);
  for (size_t i = 0; i < params.size(); ++i) {
    const KernelArgument &argument = kernel.arguments[i];
    // launchKernel passes a row count as an int32_t, any other argument as
    // a CUdeviceptr.
    uint64_t size = std::holds_alternative<RowsArgument>(argument)
                        ? sizeof(int32_t)
                        : sizeof(CUdeviceptr);
    if (params[i] == size)
      continue;
    std::string index = std::to_string(i);
    std::string param = params[i] ? "has " + countOf(params[i], "byte")
                                  : "is not a .param of a known size";
    return Status(CodaErrorInvalidImage,
                  "argument " + index + " (counting from 0) of " + what +
                      " is " + describeArgument(argument) + " (" +
                      std::to_string(size) +
                      " bytes) in its plan but parameter " + index +
                      " of its entry in kernel image '" + source + "' " +
                      param + sameCompilation);
  }
  return Status();
}

Status coda::runtime::readKernelImage(std::string bytes,
                                      const std::string &source,
                                      const LaunchPlan &plan,
                                      KernelImage &image) {
  if (bytes.compare(0, 4,
                    "\x7f"
                    "ELF") == 0) {
    image.format = KernelImage::Format::Cubin;
    image.bytes = std::move(bytes);
    return Status();
  }

  std::string_view text(bytes);
  while (!text.empty() && text.back() == '\0')
    text.remove_suffix(1);
  PTXSummary ptx;
  if (text.find('\0') == std::string_view::npos)
    ptx = scanPTX(text);
  if (ptx.target.empty())
    return Status(CodaErrorInvalidImage,
                  "kernel image '" + source +
                      "' is neither an ELF cubin nor PTX with a .target");
  if (ptx.target != plan.target.name)
    return Status(CodaErrorInvalidImage,
                  "kernel image '" + source + "' is PTX for " +
                      std::string(ptx.target) + " but its plan is for " +
                      plan.target.name);
  for (const Function &function : plan.functions)
    for (const Step &step : function.steps) {
      const auto *kernel = std::get_if<Kernel>(&step);
      if (!kernel)
        continue;
      if (Status status = checkKernel(ptx, source, function, *kernel, nullptr))
        return status;
      if (kernel->wide)
        if (Status status =
                checkKernel(ptx, source, function, *kernel->wide, kernel))
          return status;
    }

  image.format = KernelImage::Format::PTX;
  image.bytes = std::string(text) + '\0';
  return Status();
}
