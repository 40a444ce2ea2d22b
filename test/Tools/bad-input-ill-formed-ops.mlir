// Coda ops built wrong (attributes missing, of the wrong kind or out of their
// set; operands, results, regions or successors an op does not take, in the
// generic form) are rejected by both tools with exit code 1 and a located
// diagnostic. The exit code is echoed so that a crash (134, 139) fails the
// test instead of passing `not`.
//
// RUN: split-file %s %t
//
// RUN: sh -c 'coda-opt %t/missing-attribute.mlir > /dev/null 2> %t/missing-attribute.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=MISSING-ATTRIBUTE < %t/missing-attribute.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/missing-attribute.mlir > /dev/null 2> %t/missing-attribute.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=MISSING-ATTRIBUTE < %t/missing-attribute.tr.err
//
// RUN: sh -c 'coda-opt %t/attribute-kind.mlir > /dev/null 2> %t/attribute-kind.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=ATTRIBUTE-KIND < %t/attribute-kind.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/attribute-kind.mlir > /dev/null 2> %t/attribute-kind.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=ATTRIBUTE-KIND < %t/attribute-kind.tr.err
//
// RUN: sh -c 'coda-opt %t/attribute-width.mlir > /dev/null 2> %t/attribute-width.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=ATTRIBUTE-WIDTH < %t/attribute-width.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/attribute-width.mlir > /dev/null 2> %t/attribute-width.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=ATTRIBUTE-WIDTH < %t/attribute-width.tr.err
//
// RUN: sh -c 'coda-opt %t/enum-value.mlir > /dev/null 2> %t/enum-value.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=ENUM-VALUE < %t/enum-value.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/enum-value.mlir > /dev/null 2> %t/enum-value.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=ENUM-VALUE < %t/enum-value.tr.err
//
// RUN: sh -c 'coda-opt %t/generic-missing-attribute.mlir > /dev/null 2> %t/generic-missing-attribute.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=GENERIC-MISSING-ATTRIBUTE < %t/generic-missing-attribute.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/generic-missing-attribute.mlir > /dev/null 2> %t/generic-missing-attribute.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=GENERIC-MISSING-ATTRIBUTE < %t/generic-missing-attribute.tr.err
//
// RUN: sh -c 'coda-opt %t/generic-bad-property.mlir > /dev/null 2> %t/generic-bad-property.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=GENERIC-BAD-PROPERTY < %t/generic-bad-property.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/generic-bad-property.mlir > /dev/null 2> %t/generic-bad-property.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=GENERIC-BAD-PROPERTY < %t/generic-bad-property.tr.err
//
// RUN: sh -c 'coda-opt %t/generic-operand-count.mlir > /dev/null 2> %t/generic-operand-count.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=GENERIC-OPERAND-COUNT < %t/generic-operand-count.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/generic-operand-count.mlir > /dev/null 2> %t/generic-operand-count.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=GENERIC-OPERAND-COUNT < %t/generic-operand-count.tr.err
//
// RUN: sh -c 'coda-opt %t/generic-no-result.mlir > /dev/null 2> %t/generic-no-result.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=GENERIC-NO-RESULT < %t/generic-no-result.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/generic-no-result.mlir > /dev/null 2> %t/generic-no-result.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=GENERIC-NO-RESULT < %t/generic-no-result.tr.err
//
// RUN: sh -c 'coda-opt %t/generic-region.mlir > /dev/null 2> %t/generic-region.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=GENERIC-REGION < %t/generic-region.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/generic-region.mlir > /dev/null 2> %t/generic-region.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=GENERIC-REGION < %t/generic-region.tr.err
//
// RUN: sh -c 'coda-opt %t/generic-successor.mlir > /dev/null 2> %t/generic-successor.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=GENERIC-SUCCESSOR < %t/generic-successor.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/generic-successor.mlir > /dev/null 2> %t/generic-successor.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=GENERIC-SUCCESSOR < %t/generic-successor.tr.err
//
// RUN: sh -c 'coda-opt %t/concat-no-input.mlir > /dev/null 2> %t/concat-no-input.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=CONCAT-NO-INPUT < %t/concat-no-input.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/concat-no-input.mlir > /dev/null 2> %t/concat-no-input.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=CONCAT-NO-INPUT < %t/concat-no-input.tr.err

// EXIT: {{^}}exit=1{{$}}

// MISSING-ATTRIBUTE: {{.*}}missing-attribute.mlir:2:8: error: 'coda.rope' op requires attribute 'head_dim'
// ATTRIBUTE-KIND: {{.*}}attribute-kind.mlir:2:22: error: custom op 'coda.scale' 'coda.scale' op attribute 'factor' failed to satisfy constraint: 32-bit float attribute
// ATTRIBUTE-WIDTH: {{.*}}attribute-width.mlir:2:22: error: custom op 'coda.scale' 'coda.scale' op attribute 'factor' failed to satisfy constraint: 32-bit float attribute
// ENUM-VALUE: {{.*}}enum-value.mlir:2:34: error: custom op 'coda.cross_entropy' 'coda.cross_entropy' op attribute 'reduction' failed to satisfy constraint: string attribute one of "mean", "sum", "none"
// GENERIC-MISSING-ATTRIBUTE: {{.*}}generic-missing-attribute.mlir:2:8: error: 'coda.slice' op requires attribute 'offset'
// GENERIC-BAD-PROPERTY: {{.*}}generic-bad-property.mlir:2:8: error: invalid properties {offset = "a", size = 32 : i64} for op coda.slice
// GENERIC-OPERAND-COUNT: {{.*}}generic-operand-count.mlir:2:8: error: 'coda.linear' op expected 2 or more operands, but found 1
// GENERIC-NO-RESULT: {{.*}}generic-no-result.mlir:2:3: error: 'coda.relu' op requires one result
// GENERIC-REGION: {{.*}}generic-region.mlir:2:8: error: 'coda.relu' op requires zero regions
// GENERIC-SUCCESSOR: {{.*}}generic-successor.mlir:2:23: error: successors in non-terminator
// CONCAT-NO-INPUT: {{.*}}concat-no-input.mlir:2:8: error: 'coda.concat' op needs at least one input

//--- missing-attribute.mlir
func.func @f(%x: tensor<?x128xbf16>, %c: tensor<?x32xf32>) -> tensor<?x128xbf16> {
  %y = coda.rope %x, %c, %c {style = "half"} : (tensor<?x128xbf16>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x128xbf16>
  return %y : tensor<?x128xbf16>
}
//--- attribute-kind.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.scale %x {factor = "two"} : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
//--- attribute-width.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.scale %x {factor = 2.0 : f64} : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
//--- enum-value.mlir
func.func @f(%l: tensor<16x64xf32>, %t: tensor<16xi64>) -> tensor<f32> {
  %s = coda.cross_entropy %l, %t {reduction = "max"} : (tensor<16x64xf32>, tensor<16xi64>) -> tensor<f32>
  return %s : tensor<f32>
}
//--- generic-missing-attribute.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x32xbf16> {
  %y = "coda.slice"(%x) : (tensor<?x64xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}
//--- generic-bad-property.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x32xbf16> {
  %y = "coda.slice"(%x) <{offset = "a", size = 32 : i64}> : (tensor<?x64xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}
//--- generic-operand-count.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x32xbf16> {
  %y = "coda.linear"(%x) : (tensor<?x64xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}
//--- generic-no-result.mlir
func.func @f(%x: tensor<?x64xbf16>) {
  "coda.relu"(%x) : (tensor<?x64xbf16>) -> ()
  return
}
//--- generic-region.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = "coda.relu"(%x) ({
  ^bb0:
  }) : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
//--- generic-successor.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = "coda.relu"(%x)[^bb1] : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
^bb1:
  return %x : tensor<?x64xbf16>
}
//--- concat-no-input.mlir
func.func @f() -> tensor<?x32xbf16> {
  %y = coda.concat : () -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}
