//===- CodaBase.td - coda dialect definition ---------------*- tablegen -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_DIALECT_CODA_IR_CODABASE_TD
#define CODA_DIALECT_CODA_IR_CODABASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Dialect
//===----------------------------------------------------------------------===//

def Coda_Dialect : Dialect {
  let name = "coda";
  let summary = "transformer blocks as GEMM-epilogue programs";
  let description = [{
    The `coda` dialect captures a transformer block at the level a user writes
    it: linears, norms, activations, RoPE, residual adds and the loss, on 2-D
    `[rows, features]` tensors. Rows are tokens and may be dynamic; feature
    sizes are static. Every op computes in f32 and rounds once to its result
    element type. Weights follow PyTorch `nn.Linear`: `[out, in]`.

    All ops share one textual form:

    ```mlir
    %r = coda.op %a, %b {attrs} : (type-a, type-b) -> type-r
    ```

    The rewrite passes lower this level to GEMM-epilogue programs; see
    `docs/Dialect.md` for the rationale and the constraint labels.
  }];
  let cppNamespace = "::mlir::coda";
  let hasConstantMaterializer = 0;
}

//===----------------------------------------------------------------------===//
// Base classes and constraints
//===----------------------------------------------------------------------===//

/// Checks that every operand and result tensor has static sizes in all
/// dimensions but the first (the rows).
def Coda_StaticFeatureSizes : NativeOpTrait<"StaticFeatureSizes"> {
  let cppNamespace = "::mlir::coda";
}

/// A pure coda op in the common textual form.
class Coda_OpBase<string mnemonic, list<Trait> traits = []>
    : Op<Coda_Dialect, mnemonic, !listconcat(traits, [Pure])> {
  let assemblyFormat = [{
    operands attr-dict `:` functional-type(operands, results)
  }];
}

/// A graph-level op: every tensor has static feature sizes.
class Coda_Op<string mnemonic, list<Trait> traits = []>
    : Coda_OpBase<mnemonic, !listconcat(traits, [Coda_StaticFeatureSizes])>;

def Coda_Float : AnyTypeOf<[BF16, F16, F32]>;

/// A `[rows, features]` activation or a `[out, in]` weight.
def Coda_Matrix : 2DTensorOf<[BF16, F16, F32]>;
/// A per-feature vector such as gamma, beta or a bias.
def Coda_Vector : 1DTensorOf<[BF16, F16, F32]>;
/// A matrix or a vector that broadcasts over rows.
def Coda_MatrixOrVector : TensorRankOf<[BF16, F16, F32], [1, 2]>;
/// RoPE tables, kept in f32.
def Coda_F32Matrix : 2DTensorOf<[F32]>;
/// Class indices, one per row.
def Coda_Targets : 1DTensorOf<[I32, I64]>;
/// What a GEMM epilogue can read: tiles, vectors and per-row values of the
/// floating-point types, and class indices.
def Coda_EpilogueInput : TensorRankOf<[BF16, F16, F32, I32, I64], [1, 2]>;
/// A loss: a scalar, or one value per row.
def Coda_Loss : TensorRankOf<[F32], [0, 1]>;

/// A string attribute restricted to a fixed set of spellings.
class Coda_StrOneOf<list<string> values> : AttrConstraint<
    CPred<"::llvm::is_contained(::llvm::ArrayRef<::llvm::StringRef>{"
          # !interleave(!foreach(v, values, "\"" # v # "\""), ", ")
          # "}, ::llvm::cast<::mlir::StringAttr>($_self).getValue())">,
    "one of " # !interleave(!foreach(v, values, "\"" # v # "\""), ", ")>;

class Coda_StrEnumAttr<list<string> values, string default>
    : DefaultValuedStrAttr<ConfinedAttr<StrAttr, [Coda_StrOneOf<values>]>,
                           default>;

#endif // CODA_DIALECT_CODA_IR_CODABASE_TD
