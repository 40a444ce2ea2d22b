// Integer (and float) attributes and sizes too large for their type are
// rejected by both tools with exit code 1 and a located diagnostic, whether
// the parser or the op verifier catches them. The exit code is echoed so that
// a crash (134, 139) fails the test instead of passing `not`.
//
// RUN: split-file %s %t
//
// RUN: sh -c 'coda-opt %t/i64-overflow.mlir > /dev/null 2> %t/i64-overflow.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=I64-OVERFLOW < %t/i64-overflow.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/i64-overflow.mlir > /dev/null 2> %t/i64-overflow.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=I64-OVERFLOW < %t/i64-overflow.tr.err
//
// RUN: sh -c 'coda-opt %t/i64-underflow.mlir > /dev/null 2> %t/i64-underflow.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=I64-UNDERFLOW < %t/i64-underflow.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/i64-underflow.mlir > /dev/null 2> %t/i64-underflow.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=I64-UNDERFLOW < %t/i64-underflow.tr.err
//
// RUN: sh -c 'coda-opt %t/default-type.mlir > /dev/null 2> %t/default-type.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=DEFAULT-TYPE < %t/default-type.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/default-type.mlir > /dev/null 2> %t/default-type.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=DEFAULT-TYPE < %t/default-type.tr.err
//
// RUN: sh -c 'coda-opt %t/i64-max-offset.mlir > /dev/null 2> %t/i64-max-offset.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=I64-MAX-OFFSET < %t/i64-max-offset.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/i64-max-offset.mlir > /dev/null 2> %t/i64-max-offset.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=I64-MAX-OFFSET < %t/i64-max-offset.tr.err
//
// RUN: sh -c 'coda-opt %t/huge-dimension.mlir > /dev/null 2> %t/huge-dimension.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=HUGE-DIMENSION < %t/huge-dimension.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/huge-dimension.mlir > /dev/null 2> %t/huge-dimension.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=HUGE-DIMENSION < %t/huge-dimension.tr.err
//
// RUN: sh -c 'coda-opt %t/huge-float.mlir > /dev/null 2> %t/huge-float.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=HUGE-FLOAT < %t/huge-float.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/huge-float.mlir > /dev/null 2> %t/huge-float.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=HUGE-FLOAT < %t/huge-float.tr.err
//
// RUN: sh -c 'coda-opt %t/huge-hex-float.mlir > /dev/null 2> %t/huge-hex-float.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=HUGE-HEX-FLOAT < %t/huge-hex-float.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/huge-hex-float.mlir > /dev/null 2> %t/huge-hex-float.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=HUGE-HEX-FLOAT < %t/huge-hex-float.tr.err

// EXIT: {{^}}exit=1{{$}}

// I64-OVERFLOW: {{.*}}i64-overflow.mlir:2:32: error: integer constant out of range for attribute
// I64-UNDERFLOW: {{.*}}i64-underflow.mlir:2:51: error: integer constant out of range for attribute
// 2^64 without a type: the attribute is i64 by default.
// DEFAULT-TYPE: {{.*}}default-type.mlir:2:41: error: integer constant out of range for attribute
// The largest i64 parses; the slice verifier rejects the range.
// I64-MAX-OFFSET: {{.*}}i64-max-offset.mlir:2:8: error: 'coda.slice' op {{.*}}9223372036854775807
// HUGE-DIMENSION: {{.*}}huge-dimension.mlir:1:27: error: invalid dimension
// 1.0e+999 rounds to infinity in f32; the rms_norm verifier rejects it.
// HUGE-FLOAT: {{.*}}huge-float.mlir:2:8: error: 'coda.rms_norm' op epsilon must be finite and not negative, got INF
// HUGE-HEX-FLOAT: {{.*}}huge-hex-float.mlir:2:32: error: hexadecimal float constant out of range for type

//--- i64-overflow.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x32xbf16> {
  %y = coda.slice %x {offset = 123456789012345678901234567890 : i64, size = 32 : i64} : (tensor<?x64xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}
//--- i64-underflow.mlir
func.func @f(%l: tensor<16x64xf32>, %t: tensor<16xi64>) -> tensor<f32> {
  %s = coda.cross_entropy %l, %t {ignore_index = -9223372036854775809 : i64} : (tensor<16x64xf32>, tensor<16xi64>) -> tensor<f32>
  return %s : tensor<f32>
}
//--- default-type.mlir
func.func @f(%x: tensor<?x128xbf16>, %c: tensor<?x32xf32>) -> tensor<?x128xbf16> {
  %y = coda.rope %x, %c, %c {head_dim = 18446744073709551616, style = "half"} : (tensor<?x128xbf16>, tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x128xbf16>
  return %y : tensor<?x128xbf16>
}
//--- i64-max-offset.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x32xbf16> {
  %y = coda.slice %x {offset = 9223372036854775807 : i64, size = 32 : i64} : (tensor<?x64xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}
//--- huge-dimension.mlir
func.func @f(%x: tensor<?x99999999999999999999xbf16>) {
  return
}
//--- huge-float.mlir
func.func @f(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.rms_norm %x, %g {epsilon = 1.0e+999 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
//--- huge-hex-float.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.scale %x {factor = 0x123456789ABCDEF01 : f32} : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
