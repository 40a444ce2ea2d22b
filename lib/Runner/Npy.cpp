//===- Npy.cpp - NumPy .npy files for coda-run ----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The format is NumPy's NEP 1: a magic string, a version, a little-endian
// header length and a Python dict literal describing the array, padded so
// that the data starts at a multiple of 64 bytes, then the raw elements.
//
//===----------------------------------------------------------------------===//

#include "coda/Runner/Npy.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SwapByteOrder.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace mlir::coda;
/// The first six bytes of every `.npy` file.
static constexpr StringRef npyMagic("\x93NUMPY", 6);

/// The data of a `.npy` file starts at a multiple of this many bytes.
static constexpr size_t npyAlignment = 64;

/// Returns an error whose message is `path: message`.
static llvm::Error fileError(StringRef path, const llvm::Twine &message) {
  return llvm::createStringError(path + ": " + message);
}

/// Returns `shape` as Python prints a tuple: `()`, `(3,)`, `(2, 3)`.
static std::string formatShape(llvm::ArrayRef<int64_t> shape) {
  std::string result = "(";
  for (auto [index, dim] : llvm::enumerate(shape)) {
    if (index != 0)
      result += ", ";
    result += std::to_string(dim);
  }
  if (shape.size() == 1)
    result += ",";
  result += ")";
  return result;
}

/// Returns the little-endian NumPy dtype `kind` is written as.
static StringRef getDtypeString(ElementKind kind) {
  switch (kind) {
  case ElementKind::F16:
    return "<f2";
  case ElementKind::BF16:
  case ElementKind::F32:
    return "<f4";
  case ElementKind::F64:
    return "<f8";
  case ElementKind::I32:
    return "<i4";
  case ElementKind::I64:
    return "<i8";
  }
  llvm_unreachable("unknown element kind");
}

/// Returns the kind of a NumPy type code without its byte order, such as
/// `f4`, if it is one coda-run reads.
static std::optional<ElementKind> getKindOfTypeCode(StringRef code) {
  return llvm::StringSwitch<std::optional<ElementKind>>(code)
      .Case("f2", ElementKind::F16)
      .Case("f4", ElementKind::F32)
      .Case("f8", ElementKind::F64)
      .Case("i4", ElementKind::I32)
      .Case("i8", ElementKind::I64)
      .Default(std::nullopt);
}

/// Reverses the bytes of each of the `count` elements at `data`.
static void swapElementBytes(uint8_t *data, int64_t count,
                             size_t elementBytes) {
  for (int64_t i = 0; i < count; ++i)
    std::reverse(data + i * elementBytes, data + (i + 1) * elementBytes);
}

//===----------------------------------------------------------------------===//
// Header parsing
//===----------------------------------------------------------------------===//

namespace {
/// What the header dict of a `.npy` file says about its array.
struct NpyHeader {
  std::string descr;
  bool fortranOrder = false;
  llvm::SmallVector<int64_t> shape;
};

/// A parser for the Python dict literal of a `.npy` header, such as
/// `{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }`. It takes
/// the keys in any order, any spacing and trailing commas; it rejects
/// unknown, repeated and missing keys, as NumPy does.
class HeaderParser {
public:
  explicit HeaderParser(StringRef text) : rest(text) {}

  llvm::Expected<NpyHeader> parse();

private:
  /// Skips spaces, tabs and newlines.
  void skipSpace() { rest = rest.ltrim(" \t\r\n"); }
  /// Consumes `token` after any spaces, returning whether it was there.
  bool consume(StringRef token) {
    skipSpace();
    return rest.consume_front(token);
  }
  /// Returns an error saying what is wrong with the header.
  llvm::Error error(const llvm::Twine &message) const {
    return llvm::createStringError("invalid header: " + message);
  }

  /// Parses a quoted string without escapes.
  llvm::Expected<std::string> parseString();
  /// Parses `True` or `False`.
  llvm::Expected<bool> parseBool();
  /// Parses a tuple of non-negative integers, such as `()`, `(5,)`, `(2, 3)`.
  llvm::Expected<llvm::SmallVector<int64_t>> parseShape();

  /// The text not parsed yet.
  StringRef rest;
};
} // namespace

llvm::Expected<std::string> HeaderParser::parseString() {
  skipSpace();
  if (rest.empty() || (rest.front() != '\'' && rest.front() != '"'))
    return error("expected a string");
  char quote = rest.front();
  size_t end = rest.find(quote, 1);
  if (end == StringRef::npos)
    return error("unterminated string");
  StringRef value = rest.slice(1, end);
  // The dtype strings and keys NumPy writes have no escapes.
  if (value.contains('\\'))
    return error("escapes in strings are not supported");
  rest = rest.drop_front(end + 1);
  return value.str();
}

llvm::Expected<bool> HeaderParser::parseBool() {
  if (consume("True"))
    return true;
  if (consume("False"))
    return false;
  return error("expected True or False");
}

llvm::Expected<llvm::SmallVector<int64_t>> HeaderParser::parseShape() {
  if (!consume("("))
    return error("expected a tuple for 'shape'");
  llvm::SmallVector<int64_t> shape;
  while (!consume(")")) {
    uint64_t dim;
    if (rest.consumeInteger(10, dim) ||
        dim > uint64_t(std::numeric_limits<int64_t>::max()))
      return error("expected a non-negative integer in 'shape'");
    // Python 2 wrote long integers with a suffix.
    rest.consume_front("L");
    shape.push_back(int64_t(dim));
    if (!consume(",")) {
      if (!consume(")"))
        return error("expected ',' or ')' in 'shape'");
      break;
    }
  }
  return shape;
}

llvm::Expected<NpyHeader> HeaderParser::parse() {
  NpyHeader header;
  bool seenDescr = false, seenFortranOrder = false, seenShape = false;
  if (!consume("{"))
    return error("expected '{'");
  while (!consume("}")) {
    llvm::Expected<std::string> key = parseString();
    if (!key)
      return key.takeError();
    if (!consume(":"))
      return error("expected ':' after '" + *key + "'");

    if (*key == "descr" && !seenDescr) {
      seenDescr = true;
      llvm::Expected<std::string> descr = parseString();
      if (!descr) {
        llvm::consumeError(descr.takeError());
        return error("'descr' is not a simple dtype string");
      }
      header.descr = std::move(*descr);
    } else if (*key == "fortran_order" && !seenFortranOrder) {
      seenFortranOrder = true;
      llvm::Expected<bool> fortranOrder = parseBool();
      if (!fortranOrder)
        return fortranOrder.takeError();
      header.fortranOrder = *fortranOrder;
    } else if (*key == "shape" && !seenShape) {
      seenShape = true;
      llvm::Expected<llvm::SmallVector<int64_t>> shape = parseShape();
      if (!shape)
        return shape.takeError();
      header.shape = std::move(*shape);
    } else {
      return error("unexpected or repeated key '" + *key + "'");
    }

    if (!consume(",")) {
      if (!consume("}"))
        return error("expected ',' or '}'");
      break;
    }
  }
  skipSpace();
  if (!rest.empty())
    return error("unexpected text after the dict");
  if (!seenDescr || !seenFortranOrder || !seenShape)
    return error("the dict needs the keys 'descr', 'fortran_order' and "
                 "'shape'");
  return header;
}

//===----------------------------------------------------------------------===//
// Reading and writing
//===----------------------------------------------------------------------===//

llvm::Expected<HostTensor> mlir::coda::readNpy(StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!buffer)
    return fileError(path, "cannot open: " + buffer.getError().message());
  StringRef contents = (*buffer)->getBuffer();

  if (!contents.starts_with(npyMagic))
    return fileError(path, "not a .npy file (bad magic)");
  if (contents.size() < 8)
    return fileError(path, "truncated header");
  unsigned major = uint8_t(contents[6]);
  unsigned minor = uint8_t(contents[7]);
  if (minor != 0 || major < 1 || major > 3)
    return fileError(path, "unsupported .npy format version " +
                               llvm::Twine(major) + "." + llvm::Twine(minor) +
                               " (expected 1.0, 2.0 or 3.0)");

  // Version 1 has a 16-bit header length, versions 2 and 3 a 32-bit one.
  size_t lengthBytes = major == 1 ? 2 : 4;
  size_t headerStart = 8 + lengthBytes;
  if (contents.size() < headerStart)
    return fileError(path, "truncated header");
  const char *lengthField = contents.data() + 8;
  uint64_t headerLength = major == 1
                              ? llvm::support::endian::read16le(lengthField)
                              : llvm::support::endian::read32le(lengthField);
  if (contents.size() - headerStart < headerLength)
    return fileError(path, "truncated header (" + llvm::Twine(headerLength) +
                               " bytes announced, " +
                               llvm::Twine(contents.size() - headerStart) +
                               " present)");

  llvm::Expected<NpyHeader> header =
      HeaderParser(contents.substr(headerStart, headerLength)).parse();
  if (!header)
    return fileError(path, llvm::toString(header.takeError()));

  StringRef descr = header->descr;
  std::optional<ElementKind> kind;
  if (descr.size() == 3)
    kind = getKindOfTypeCode(descr.drop_front());
  if (kind && descr.front() == '>')
    return fileError(path, "big-endian dtype '" + descr +
                               "' is not supported (expected <" +
                               descr.drop_front() + ")");
  if (!kind || (descr.front() != '<' && descr.front() != '='))
    return fileError(path, "unsupported dtype '" + descr +
                               "' (expected <f2, <f4, <f8, <i4 or <i8)");
  if (header->fortranOrder)
    return fileError(path, "Fortran-order arrays are not supported");

  size_t elementBytes = getElementBytes(*kind);
  int64_t numElements = 1;
  int64_t dataBytes = 0;
  for (int64_t dim : header->shape)
    if (llvm::MulOverflow(numElements, dim, numElements))
      return fileError(path,
                       "shape " + formatShape(header->shape) + " is too large");
  if (llvm::MulOverflow(numElements, int64_t(elementBytes), dataBytes))
    return fileError(path,
                     "shape " + formatShape(header->shape) + " is too large");

  StringRef data = contents.drop_front(headerStart + headerLength);
  if (uint64_t(dataBytes) != data.size())
    return fileError(path, "file has " + llvm::Twine(data.size()) +
                               " bytes of data, shape " +
                               formatShape(header->shape) + " of " + descr +
                               " needs " + llvm::Twine(dataBytes));

  HostTensor tensor(*kind, header->shape);
  if (dataBytes != 0)
    std::memcpy(tensor.data(), data.data(), dataBytes);
  // '=' is the host's own order; '<' needs swapping only on big-endian hosts.
  if (descr.front() == '<' && !llvm::sys::IsLittleEndianHost)
    swapElementBytes(tensor.data(), numElements, elementBytes);
  return tensor;
}

llvm::Error mlir::coda::writeNpy(StringRef path, const HostTensor &tensor) {
  std::string header =
      "{'descr': '" + getDtypeString(tensor.getKind()).str() +
      "', 'fortran_order': False, 'shape': " + formatShape(tensor.getShape()) +
      ", }";
  // NumPy's rule: pad with spaces and end with a newline so that the data
  // starts at a multiple of 64 bytes, adding a full block if already there.
  size_t preamble = npyMagic.size() + 2 + 2;
  size_t padding = npyAlignment - (preamble + header.size() + 1) % npyAlignment;
  header.append(padding, ' ');
  header += '\n';
  if (header.size() > std::numeric_limits<uint16_t>::max())
    return fileError(path, "shape " + formatShape(tensor.getShape()) +
                               " does not fit a version 1.0 header");

  // NumPy has no bf16; every bf16 value is exactly an f32. Only then, or on
  // a big-endian host, do the bytes to write differ from the tensor's.
  const HostTensor *written = &tensor;
  HostTensor converted;
  if (tensor.getKind() == ElementKind::BF16 || !llvm::sys::IsLittleEndianHost) {
    converted = tensor.convertedTo(tensor.getKind() == ElementKind::BF16
                                       ? ElementKind::F32
                                       : tensor.getKind());
    if (!llvm::sys::IsLittleEndianHost)
      swapElementBytes(converted.data(), converted.getNumElements(),
                       getElementBytes(converted.getKind()));
    written = &converted;
  }

  std::error_code error;
  llvm::raw_fd_ostream os(path, error, llvm::sys::fs::OF_None);
  if (error)
    return fileError(path, "cannot open for writing: " + error.message());
  char lengthField[2];
  llvm::support::endian::write16le(lengthField, uint16_t(header.size()));
  os << npyMagic << char(1) << char(0);
  os.write(lengthField, sizeof(lengthField));
  os << header;
  os.write(reinterpret_cast<const char *>(written->data()),
           size_t(written->getNumElements()) *
               getElementBytes(written->getKind()));
  os.close();
  if (os.has_error()) {
    std::error_code writeError = os.error();
    os.clear_error();
    return fileError(path, "cannot write: " + writeError.message());
  }
  return llvm::Error::success();
}
