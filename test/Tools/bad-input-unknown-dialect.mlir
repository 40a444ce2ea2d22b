// An op, a type or an attribute of a dialect that neither tool registers is
// rejected with exit code 1 and a located diagnostic. The exit code is echoed
// so that a crash (134, 139) fails the test instead of passing `not`.
//
// RUN: split-file %s %t
//
// RUN: sh -c 'coda-opt %t/custom-op.mlir > /dev/null 2> %t/custom-op.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=CUSTOM < %t/custom-op.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/custom-op.mlir > /dev/null 2> %t/custom-op.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=CUSTOM < %t/custom-op.tr.err
//
// RUN: sh -c 'coda-opt %t/generic-op.mlir > /dev/null 2> %t/generic-op.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=GENERIC < %t/generic-op.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/generic-op.mlir > /dev/null 2> %t/generic-op.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=GENERIC < %t/generic-op.tr.err
//
// RUN: sh -c 'coda-opt %t/top-level-op.mlir > /dev/null 2> %t/top-level-op.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=TOP-LEVEL < %t/top-level-op.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/top-level-op.mlir > /dev/null 2> %t/top-level-op.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=TOP-LEVEL < %t/top-level-op.tr.err
//
// RUN: sh -c 'coda-opt %t/dialect-type.mlir > /dev/null 2> %t/dialect-type.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=TYPE < %t/dialect-type.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/dialect-type.mlir > /dev/null 2> %t/dialect-type.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=TYPE < %t/dialect-type.tr.err
//
// RUN: sh -c 'coda-opt %t/dialect-attribute.mlir > /dev/null 2> %t/dialect-attribute.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=ATTRIBUTE < %t/dialect-attribute.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/dialect-attribute.mlir > /dev/null 2> %t/dialect-attribute.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=ATTRIBUTE < %t/dialect-attribute.tr.err

// EXIT: {{^}}exit=1{{$}}

// CUSTOM: {{.*}}custom-op.mlir:2:8: error: Dialect `bogus' not found for custom op 'bogus.relu'
// CUSTOM: {{.*}}custom-op.mlir:2:8: note: Available dialects: {{.*}}builtin, {{(cf, )?}}coda, func

// GENERIC: {{.*}}generic-op.mlir:2:20: error: operation being parsed with an unregistered dialect

// TOP-LEVEL: {{.*}}top-level-op.mlir:1:1: error: Dialect `bogus' not found for custom op 'bogus.module'

// TYPE: {{.*}}dialect-type.mlir:1:25: error: `!"bogus"<"t">` type created with unregistered dialect

// ATTRIBUTE: {{.*}}dialect-attribute.mlir:1:39: error: #"bogus"<"a"> : 'none' attribute created with unregistered dialect

//--- custom-op.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = bogus.relu %x : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
//--- generic-op.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = "bogus.relu"(%x) : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
//--- top-level-op.mlir
bogus.module {
}
//--- dialect-type.mlir
func.func @f(%x: !bogus.t) {
  return
}
//--- dialect-attribute.mlir
func.func @f() attributes {a = #bogus.a} {
  return
}
