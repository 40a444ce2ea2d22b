// Ops used with the wrong types are rejected by both tools with exit code 1
// and a located diagnostic: an operand whose type is not the SSA value's, an
// element type the op does not take (i32, f64), the wrong rank or shape kind,
// mismatched element types between operands or with the result. The exit
// code is echoed so that a crash (134, 139) fails the test instead of passing
// `not`.
//
// RUN: split-file %s %t
//
// RUN: sh -c 'coda-opt %t/ssa-type-mismatch.mlir > /dev/null 2> %t/ssa-type-mismatch.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=SSA-TYPE < %t/ssa-type-mismatch.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/ssa-type-mismatch.mlir > /dev/null 2> %t/ssa-type-mismatch.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=SSA-TYPE < %t/ssa-type-mismatch.tr.err
//
// RUN: sh -c 'coda-opt %t/element-type-mismatch.mlir > /dev/null 2> %t/element-type-mismatch.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=ELEMENT-TYPE < %t/element-type-mismatch.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/element-type-mismatch.mlir > /dev/null 2> %t/element-type-mismatch.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=ELEMENT-TYPE < %t/element-type-mismatch.tr.err
//
// RUN: sh -c 'coda-opt %t/i32-activation.mlir > /dev/null 2> %t/i32-activation.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=I32-ACTIVATION < %t/i32-activation.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/i32-activation.mlir > /dev/null 2> %t/i32-activation.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=I32-ACTIVATION < %t/i32-activation.tr.err
//
// RUN: sh -c 'coda-opt %t/i32-linear.mlir > /dev/null 2> %t/i32-linear.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=I32-LINEAR < %t/i32-linear.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/i32-linear.mlir > /dev/null 2> %t/i32-linear.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=I32-LINEAR < %t/i32-linear.tr.err
//
// RUN: sh -c 'coda-opt %t/f64.mlir > /dev/null 2> %t/f64.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=F64 < %t/f64.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/f64.mlir > /dev/null 2> %t/f64.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=F64 < %t/f64.tr.err
//
// RUN: sh -c 'coda-opt %t/rank-3.mlir > /dev/null 2> %t/rank-3.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=RANK-3 < %t/rank-3.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/rank-3.mlir > /dev/null 2> %t/rank-3.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=RANK-3 < %t/rank-3.tr.err
//
// RUN: sh -c 'coda-opt %t/unranked.mlir > /dev/null 2> %t/unranked.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=UNRANKED < %t/unranked.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/unranked.mlir > /dev/null 2> %t/unranked.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=UNRANKED < %t/unranked.tr.err
//
// RUN: sh -c 'coda-opt %t/memref.mlir > /dev/null 2> %t/memref.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=MEMREF < %t/memref.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/memref.mlir > /dev/null 2> %t/memref.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=MEMREF < %t/memref.tr.err
//
// RUN: sh -c 'coda-opt %t/result-element-type.mlir > /dev/null 2> %t/result-element-type.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=RESULT-ELEMENT-TYPE < %t/result-element-type.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/result-element-type.mlir > /dev/null 2> %t/result-element-type.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=RESULT-ELEMENT-TYPE < %t/result-element-type.tr.err
//
// RUN: sh -c 'coda-opt %t/dynamic-feature-size.mlir > /dev/null 2> %t/dynamic-feature-size.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=DYNAMIC-FEATURE < %t/dynamic-feature-size.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/dynamic-feature-size.mlir > /dev/null 2> %t/dynamic-feature-size.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=DYNAMIC-FEATURE < %t/dynamic-feature-size.tr.err
//
// RUN: sh -c 'coda-opt %t/f32-targets.mlir > /dev/null 2> %t/f32-targets.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=F32-TARGETS < %t/f32-targets.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/f32-targets.mlir > /dev/null 2> %t/f32-targets.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=F32-TARGETS < %t/f32-targets.tr.err
//
// RUN: sh -c 'coda-opt %t/bf16-rope-table.mlir > /dev/null 2> %t/bf16-rope-table.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=BF16-ROPE-TABLE < %t/bf16-rope-table.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/bf16-rope-table.mlir > /dev/null 2> %t/bf16-rope-table.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=BF16-ROPE-TABLE < %t/bf16-rope-table.tr.err
//
// RUN: sh -c 'coda-opt %t/return-type.mlir > /dev/null 2> %t/return-type.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=RETURN-TYPE < %t/return-type.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/return-type.mlir > /dev/null 2> %t/return-type.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=RETURN-TYPE < %t/return-type.tr.err

// EXIT: {{^}}exit=1{{$}}

// The linear's operand type says bf16, the SSA value %x is f16.
// SSA-TYPE: {{.*}}ssa-type-mismatch.mlir:2:20: error: use of value '%x' expects different type than prior uses: 'tensor<?x64xbf16>' vs 'tensor<?x64xf16>'
// SSA-TYPE: {{.*}}ssa-type-mismatch.mlir:1:14: note: prior use here

// ELEMENT-TYPE: {{.*}}element-type-mismatch.mlir:2:8: error: 'coda.linear' op w has element type 'f16' but x has 'bf16'

// I32-ACTIVATION: {{.*}}i32-activation.mlir:2:8: error: 'coda.relu' op operand #0 must be 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<?x64xi32>'

// I32-LINEAR: {{.*}}i32-linear.mlir:2:8: error: 'coda.linear' op operand #0 must be 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<?x64xi32>'

// F64: {{.*}}f64.mlir:2:8: error: 'coda.silu' op operand #0 must be 2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<?x64xf64>'

// RANK-3: {{.*}}rank-3.mlir:2:8: error: 'coda.relu' op operand #0 must be 2D tensor of {{.*}}, but got 'tensor<2x?x64xbf16>'

// UNRANKED: {{.*}}unranked.mlir:2:8: error: 'coda.relu' op operand #0 must be 2D tensor of {{.*}}, but got 'tensor<*xbf16>'

// MEMREF: {{.*}}memref.mlir:2:8: error: 'coda.relu' op operand #0 must be 2D tensor of {{.*}}, but got 'memref<?x64xbf16>'

// RESULT-ELEMENT-TYPE: {{.*}}result-element-type.mlir:2:8: error: 'coda.tanh' op result element type 'f32' differs from x's 'bf16'

// DYNAMIC-FEATURE: {{.*}}dynamic-feature-size.mlir:2:8: error: 'coda.relu' op operand #0 has type 'tensor<?x?xbf16>' with a dynamic size in dimension 1; only the row count may be dynamic

// F32-TARGETS: {{.*}}f32-targets.mlir:2:8: error: 'coda.cross_entropy' op operand #1 must be 1D tensor of 32-bit signless integer or 64-bit signless integer values, but got 'tensor<16xf32>'

// BF16-ROPE-TABLE: {{.*}}bf16-rope-table.mlir:2:8: error: 'coda.rope' op operand #1 must be 2D tensor of 32-bit float values, but got 'tensor<?x32xbf16>'

// RETURN-TYPE: {{.*}}return-type.mlir:3:3: error: type of return operand 0 ('tensor<?x64xbf16>') doesn't match function result type ('tensor<?x64xf32>') in function @f

//--- ssa-type-mismatch.mlir
func.func @f(%x: tensor<?x64xf16>, %w: tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  %y = coda.linear %x, %w : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}
//--- element-type-mismatch.mlir
func.func @f(%x: tensor<?x64xbf16>, %w: tensor<32x64xf16>) -> tensor<?x32xbf16> {
  %y = coda.linear %x, %w : (tensor<?x64xbf16>, tensor<32x64xf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}
//--- i32-activation.mlir
func.func @f(%x: tensor<?x64xi32>) -> tensor<?x64xi32> {
  %y = coda.relu %x : (tensor<?x64xi32>) -> tensor<?x64xi32>
  return %y : tensor<?x64xi32>
}
//--- i32-linear.mlir
func.func @f(%x: tensor<?x64xi32>, %w: tensor<32x64xi32>) -> tensor<?x32xi32> {
  %y = coda.linear %x, %w : (tensor<?x64xi32>, tensor<32x64xi32>) -> tensor<?x32xi32>
  return %y : tensor<?x32xi32>
}
//--- f64.mlir
func.func @f(%x: tensor<?x64xf64>) -> tensor<?x64xf64> {
  %y = coda.silu %x : (tensor<?x64xf64>) -> tensor<?x64xf64>
  return %y : tensor<?x64xf64>
}
//--- rank-3.mlir
func.func @f(%x: tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16> {
  %y = coda.relu %x : (tensor<2x?x64xbf16>) -> tensor<2x?x64xbf16>
  return %y : tensor<2x?x64xbf16>
}
//--- unranked.mlir
func.func @f(%x: tensor<*xbf16>) -> tensor<*xbf16> {
  %y = coda.relu %x : (tensor<*xbf16>) -> tensor<*xbf16>
  return %y : tensor<*xbf16>
}
//--- memref.mlir
func.func @f(%x: memref<?x64xbf16>) -> memref<?x64xbf16> {
  %y = coda.relu %x : (memref<?x64xbf16>) -> memref<?x64xbf16>
  return %y : memref<?x64xbf16>
}
//--- result-element-type.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x64xf32> {
  %y = coda.tanh %x : (tensor<?x64xbf16>) -> tensor<?x64xf32>
  return %y : tensor<?x64xf32>
}
//--- dynamic-feature-size.mlir
func.func @f(%x: tensor<?x?xbf16>) -> tensor<?x?xbf16> {
  %y = coda.relu %x : (tensor<?x?xbf16>) -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}
//--- return-type.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x64xf32> {
  %y = coda.relu %x : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
//--- f32-targets.mlir
func.func @f(%l: tensor<16x64xf32>, %t: tensor<16xf32>) -> tensor<f32> {
  %s = coda.cross_entropy %l, %t : (tensor<16x64xf32>, tensor<16xf32>) -> tensor<f32>
  return %s : tensor<f32>
}
//--- bf16-rope-table.mlir
func.func @f(%x: tensor<?x128xbf16>, %c: tensor<?x32xbf16>) -> tensor<?x128xbf16> {
  %y = coda.rope %x, %c, %c {head_dim = 64 : i64, style = "half"} : (tensor<?x128xbf16>, tensor<?x32xbf16>, tensor<?x32xbf16>) -> tensor<?x128xbf16>
  return %y : tensor<?x128xbf16>
}
