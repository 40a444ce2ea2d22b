//===- Json.cpp - a small JSON reader -------------------------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Json.h"

#include <charconv>

using namespace coda::runtime::json;

const Value *Value::get(std::string_view key) const {
  for (const auto &[name, value] : members)
    if (name == key)
      return &value;
  return nullptr;
}

const char *coda::runtime::json::describe(Value::Kind kind) {
  switch (kind) {
  case Value::Kind::Null:
    return "null";
  case Value::Kind::Bool:
    return "a boolean";
  case Value::Kind::Integer:
    return "an integer";
  case Value::Kind::Number:
    return "a number";
  case Value::Kind::String:
    return "a string";
  case Value::Kind::Array:
    return "an array";
  case Value::Kind::Object:
    return "an object";
  }
  return "a value";
}

namespace {

/// Recursive descent over the text; nesting is bounded by kMaxDepth.
class Parser {
public:
  Parser(std::string_view text, ParseError &error) : text(text), error(error) {}

  bool parseDocument(Value &result) {
    skipSpace();
    if (!parseValue(result, 0))
      return false;
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the JSON value");
    return true;
  }

private:
  static constexpr unsigned kMaxDepth = 64;

  bool fail(std::string message) { return failAt(pos, std::move(message)); }
  bool failAt(size_t offset, std::string message) {
    error.offset = offset;
    error.message = std::move(message);
    return false;
  }

  bool atEnd() const { return pos == text.size(); }
  char peek() const { return atEnd() ? '\0' : text[pos]; }

  void skipSpace() {
    while (!atEnd() && (text[pos] == ' ' || text[pos] == '\t' ||
                        text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }

  bool expect(char c, const char *what) {
    if (peek() != c)
      return fail(atEnd()
                      ? std::string("unexpected end of input, expected ") + what
                      : std::string("expected ") + what);
    ++pos;
    return true;
  }

  bool parseValue(Value &value, unsigned depth) {
    value.offset = pos;
    if (depth == kMaxDepth)
      return fail("nesting deeper than " + std::to_string(kMaxDepth) +
                  " levels");
    char c = peek();
    if (c == '{')
      return parseObject(value, depth);
    if (c == '[')
      return parseArray(value, depth);
    if (c == '"') {
      value.kind = Value::Kind::String;
      return parseString(value.string);
    }
    if (c == '-' || (c >= '0' && c <= '9'))
      return parseNumber(value);
    if (parseKeyword("true")) {
      value.kind = Value::Kind::Bool;
      value.boolean = true;
      return true;
    }
    if (parseKeyword("false")) {
      value.kind = Value::Kind::Bool;
      return true;
    }
    if (parseKeyword("null"))
      return true;
    return fail(atEnd() ? "unexpected end of input, expected a value"
                        : "expected a value");
  }

  bool parseKeyword(std::string_view word) {
    if (text.substr(pos, word.size()) != word)
      return false;
    pos += word.size();
    return true;
  }

  bool parseObject(Value &value, unsigned depth) {
    value.kind = Value::Kind::Object;
    ++pos;
    skipSpace();
    if (peek() == '}') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      size_t keyOffset = pos;
      std::string key;
      if (peek() != '"')
        return expect('"', "a string key");
      if (!parseString(key))
        return false;
      if (value.get(key))
        return failAt(keyOffset, "duplicate key '" + key + "'");
      skipSpace();
      if (!expect(':', "':' after the key"))
        return false;
      skipSpace();
      Value member;
      if (!parseValue(member, depth + 1))
        return false;
      value.members.emplace_back(std::move(key), std::move(member));
      skipSpace();
      if (peek() == '}') {
        ++pos;
        return true;
      }
      if (!expect(',', "',' or '}' in the object"))
        return false;
    }
  }

  bool parseArray(Value &value, unsigned depth) {
    value.kind = Value::Kind::Array;
    ++pos;
    skipSpace();
    if (peek() == ']') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      Value element;
      if (!parseValue(element, depth + 1))
        return false;
      value.elements.push_back(std::move(element));
      skipSpace();
      if (peek() == ']') {
        ++pos;
        return true;
      }
      if (!expect(',', "',' or ']' in the array"))
        return false;
    }
  }

  /// Appends code point `cp` to `out` as UTF-8.
  static void appendUtf8(uint32_t cp, std::string &out) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xC0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += char(0xE0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    } else {
      out += char(0xF0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3F));
      out += char(0x80 | ((cp >> 6) & 0x3F));
      out += char(0x80 | (cp & 0x3F));
    }
  }

  bool parseHex4(uint32_t &cp) {
    if (text.size() - pos < 4)
      return fail("truncated \\u escape");
    cp = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text[pos + i];
      uint32_t digit;
      if (c >= '0' && c <= '9')
        digit = uint32_t(c - '0');
      else if (c >= 'a' && c <= 'f')
        digit = uint32_t(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        digit = uint32_t(c - 'A' + 10);
      else
        return failAt(pos + i, "invalid hex digit in \\u escape");
      cp = cp * 16 + digit;
    }
    pos += 4;
    return true;
  }

  /// A \u escape, after the "\u": one code point, or a surrogate pair.
  bool parseUnicodeEscape(std::string &out) {
    size_t start = pos - 2;
    uint32_t cp;
    if (!parseHex4(cp))
      return false;
    if (cp >= 0xDC00 && cp <= 0xDFFF)
      return failAt(start, "unpaired low surrogate in \\u escape");
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      uint32_t low;
      if (text.substr(pos, 2) != "\\u")
        return failAt(start, "unpaired high surrogate in \\u escape");
      pos += 2;
      if (!parseHex4(low))
        return false;
      if (low < 0xDC00 || low > 0xDFFF)
        return failAt(start, "unpaired high surrogate in \\u escape");
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    appendUtf8(cp, out);
    return true;
  }

  bool parseString(std::string &out) {
    size_t start = pos++;
    while (true) {
      if (atEnd())
        return failAt(start, "unterminated string");
      char c = text[pos++];
      if (c == '"')
        return true;
      if (static_cast<unsigned char>(c) < 0x20)
        return failAt(pos - 1, "control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (atEnd())
        return failAt(start, "unterminated string");
      char escape = text[pos++];
      switch (escape) {
      case '"':
      case '\\':
      case '/':
        out += escape;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u':
        if (!parseUnicodeEscape(out))
          return false;
        break;
      default:
        return failAt(pos - 2, std::string("invalid escape '\\") + escape +
                                   "' in a string");
      }
    }
  }

  bool skipDigits() {
    size_t start = pos;
    while (!atEnd() && text[pos] >= '0' && text[pos] <= '9')
      ++pos;
    return pos != start;
  }

  bool parseNumber(Value &value) {
    size_t start = pos;
    if (peek() == '-')
      ++pos;
    if (peek() == '0')
      ++pos;
    else if (!skipDigits())
      return fail("expected a digit");
    bool integral = true;
    if (peek() == '.') {
      ++pos;
      integral = false;
      if (!skipDigits())
        return fail("expected a digit after '.'");
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos;
      integral = false;
      if (peek() == '+' || peek() == '-')
        ++pos;
      if (!skipDigits())
        return fail("expected a digit in the exponent");
    }
    const char *first = text.data() + start, *last = text.data() + pos;
    if (integral) {
      auto [end, ec] = std::from_chars(first, last, value.integer);
      if (ec == std::errc() && end == last) {
        value.kind = Value::Kind::Integer;
        value.number = double(value.integer);
        return true;
      }
    }
    // A fraction, an exponent, or an integer beyond int64.
    auto [end, ec] = std::from_chars(first, last, value.number);
    if (ec != std::errc() || end != last)
      return failAt(start, "number out of range");
    value.kind = Value::Kind::Number;
    return true;
  }

  std::string_view text;
  ParseError &error;
  size_t pos = 0;
};

} // namespace

bool coda::runtime::json::parse(std::string_view text, Value &result,
                                ParseError &error) {
  result = Value();
  return Parser(text, error).parseDocument(result);
}
