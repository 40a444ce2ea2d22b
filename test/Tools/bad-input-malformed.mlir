// Malformed text (unbalanced braces and parentheses, a missing `:`) is
// rejected by both tools with exit code 1 and a located diagnostic. The exit
// code is echoed so that a crash (134, 139) fails the test instead of passing
// `not`.
//
// RUN: split-file %s %t
//
// RUN: sh -c 'coda-opt %t/unclosed-brace.mlir > /dev/null 2> %t/unclosed-brace.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=UNCLOSED-BRACE < %t/unclosed-brace.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/unclosed-brace.mlir > /dev/null 2> %t/unclosed-brace.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=UNCLOSED-BRACE < %t/unclosed-brace.tr.err
//
// RUN: sh -c 'coda-opt %t/extra-brace.mlir > /dev/null 2> %t/extra-brace.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=EXTRA-BRACE < %t/extra-brace.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/extra-brace.mlir > /dev/null 2> %t/extra-brace.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=EXTRA-BRACE < %t/extra-brace.tr.err
//
// RUN: sh -c 'coda-opt %t/unclosed-paren.mlir > /dev/null 2> %t/unclosed-paren.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=UNCLOSED-PAREN < %t/unclosed-paren.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/unclosed-paren.mlir > /dev/null 2> %t/unclosed-paren.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=UNCLOSED-PAREN < %t/unclosed-paren.tr.err
//
// RUN: sh -c 'coda-opt %t/missing-colon-argument.mlir > /dev/null 2> %t/missing-colon-argument.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=MISSING-COLON-ARGUMENT < %t/missing-colon-argument.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/missing-colon-argument.mlir > /dev/null 2> %t/missing-colon-argument.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=MISSING-COLON-ARGUMENT < %t/missing-colon-argument.tr.err
//
// RUN: sh -c 'coda-opt %t/missing-colon-op.mlir > /dev/null 2> %t/missing-colon-op.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=MISSING-COLON-OP < %t/missing-colon-op.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/missing-colon-op.mlir > /dev/null 2> %t/missing-colon-op.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=MISSING-COLON-OP < %t/missing-colon-op.tr.err

// EXIT: {{^}}exit=1{{$}}

// The function is never closed: the parser runs into the end of the file.
// UNCLOSED-BRACE: {{.*}}unclosed-brace.mlir:3:32: error: expected operation name in quotes

// One `}` too many at the top level.
// EXTRA-BRACE: {{.*}}extra-brace.mlir:4:2: error: expected operation name in quotes

// UNCLOSED-PAREN: {{.*}}unclosed-paren.mlir:2:41: error: expected ')'

// MISSING-COLON-ARGUMENT: {{.*}}missing-colon-argument.mlir:1:16: error: expected ':'

// MISSING-COLON-OP: {{.*}}missing-colon-op.mlir:2:20: error: expected ':'

//--- unclosed-brace.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.relu %x : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
//--- extra-brace.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.relu %x : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
}
//--- unclosed-paren.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.relu %x : (tensor<?x64xbf16> -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
//--- missing-colon-argument.mlir
func.func @f(%x tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  return %x : tensor<?x64xbf16>
}
//--- missing-colon-op.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.relu %x (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
