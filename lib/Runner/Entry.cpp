//===- Entry.cpp - the function coda-run runs -----------------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "coda/Runner/Entry.h"

using namespace mlir;
using namespace mlir::coda;

FailureOr<TensorSignature> mlir::coda::getTensorSignature(Type type,
                                                          bool computeInF64) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return failure();
  std::optional<ElementKind> kind = getElementKind(tensor.getElementType());
  if (!kind)
    return failure();
  if (computeInF64 && isFloatKind(*kind))
    kind = ElementKind::F64;
  for (int64_t dim = 1; dim < tensor.getRank(); ++dim)
    if (tensor.isDynamicDim(dim))
      return failure();
  return TensorSignature{*kind, llvm::to_vector(tensor.getShape())};
}

/// Appends the signatures of `types` to `signatures`; fails, reporting on
/// `func`, at the first type coda-run does not handle. `what` is "argument"
/// or "result".
static LogicalResult
appendSignatures(func::FuncOp func, TypeRange types, bool computeInF64,
                 StringRef what,
                 llvm::SmallVectorImpl<TensorSignature> &signatures) {
  for (auto [index, type] : llvm::enumerate(types)) {
    FailureOr<TensorSignature> signature =
        getTensorSignature(type, computeInF64);
    if (failed(signature))
      return func.emitError()
             << what << " #" << index << " has type " << type
             << "; coda-run takes ranked tensors of bf16, f16, f32, f64, "
                "i32 or i64 whose only dynamic size is the row count";
    signatures.push_back(std::move(*signature));
  }
  return success();
}

LogicalResult mlir::coda::getFunctionSignature(
    func::FuncOp func, bool computeInF64,
    llvm::SmallVectorImpl<TensorSignature> &arguments,
    llvm::SmallVectorImpl<TensorSignature> &results) {
  if (failed(appendSignatures(func, func.getArgumentTypes(), computeInF64,
                              "argument", arguments)))
    return failure();
  return appendSignatures(func, func.getResultTypes(), computeInF64, "result",
                          results);
}

llvm::Expected<std::vector<HostTensor>>
mlir::coda::convertInputs(StringRef name, ArrayRef<TensorSignature> arguments,
                          ArrayRef<HostTensor> inputs, int64_t &rows) {
  if (inputs.size() != arguments.size())
    return llvm::createStringError("@%s takes %zu arguments, got %zu",
                                   name.str().c_str(), arguments.size(),
                                   inputs.size());
  rows = ShapedType::kDynamic;
  std::vector<HostTensor> converted;
  converted.reserve(inputs.size());
  for (auto [index, input, signature] : llvm::enumerate(inputs, arguments)) {
    bool matches = input.getShape().size() == signature.shape.size();
    for (auto [size, expected] : llvm::zip(input.getShape(), signature.shape))
      matches &= ShapedType::isDynamic(expected) || size == expected;
    if (!matches)
      return llvm::createStringError(
          "argument #%zu of @%s: got %s, which does not fit the argument's "
          "shape",
          index, name.str().c_str(), input.getTypeString().c_str());
    if (!signature.shape.empty() && ShapedType::isDynamic(signature.shape[0])) {
      if (!ShapedType::isDynamic(rows) && rows != input.getShape()[0])
        return llvm::createStringError(
            "argument #%zu of @%s has %lld rows but an earlier argument has "
            "%lld",
            index, name.str().c_str(), (long long)input.getShape()[0],
            (long long)rows);
      rows = input.getShape()[0];
    }
    if (isFloatKind(input.getKind()) != isFloatKind(signature.kind))
      return llvm::createStringError(
          "argument #%zu of @%s: got %s elements for an argument of %s", index,
          name.str().c_str(), getElementKindName(input.getKind()).data(),
          getElementKindName(signature.kind).data());
    converted.push_back(input.convertedTo(signature.kind));
  }
  return converted;
}

OwningOpRef<ModuleOp> mlir::coda::cloneEntry(ModuleOp module, StringRef name) {
  OwningOpRef<ModuleOp> copy = module.clone();
  for (auto other : llvm::make_early_inc_range(copy->getOps<func::FuncOp>()))
    if (other.getSymName() != name)
      other.erase();
  return copy;
}
