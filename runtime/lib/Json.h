//===- Json.h - a small JSON reader -----------------------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Enough JSON for launch plans: the whole grammar of RFC 8259, numbers
// kept as int64 when they are integers, every value with the byte offset
// it starts at so that later checks can say where a field is.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_RUNTIME_JSON_H
#define CODA_RUNTIME_JSON_H

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace coda::runtime::json {

/// A parsed JSON value.
struct Value {
  enum class Kind { Null, Bool, Integer, Number, String, Array, Object };

  Kind kind = Kind::Null;
  /// The byte offset of the value's first character in the text.
  size_t offset = 0;
  bool boolean = false;
  /// Integer: the value; Number (a fraction or exponent): unused.
  int64_t integer = 0;
  /// Number: the value; Integer: the value too.
  double number = 0;
  std::string string;
  std::vector<Value> elements;
  /// Object members in text order; keys are unique.
  std::vector<std::pair<std::string, Value>> members;

  /// The member named `key` of an object, or null.
  const Value *get(std::string_view key) const;
};

/// The kind's name as JSON calls it ("an integer", "an object", ...).
const char *describe(Value::Kind kind);

/// Where and why a text is not JSON.
struct ParseError {
  size_t offset = 0;
  std::string message;
};

/// Parses `text`, which must hold exactly one value (whitespace around it
/// allowed). Returns false and sets `error` when it is not JSON.
bool parse(std::string_view text, Value &result, ParseError &error);

} // namespace coda::runtime::json

#endif // CODA_RUNTIME_JSON_H
