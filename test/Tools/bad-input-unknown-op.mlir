// An op of the coda namespace that the dialect does not define is rejected by
// both tools with exit code 1 and a located diagnostic, in the custom and the
// generic form; so are a type and an attribute in the coda namespace, which
// the dialect has none of. The exit code is echoed so that a crash (134, 139)
// fails the test instead of passing `not`.
//
// RUN: split-file %s %t
//
// RUN: sh -c 'coda-opt %t/frobnicate-custom.mlir > /dev/null 2> %t/frobnicate-custom.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=CUSTOM < %t/frobnicate-custom.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/frobnicate-custom.mlir > /dev/null 2> %t/frobnicate-custom.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=CUSTOM < %t/frobnicate-custom.tr.err
//
// RUN: sh -c 'coda-opt %t/frobnicate-generic.mlir > /dev/null 2> %t/frobnicate-generic.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=GENERIC < %t/frobnicate-generic.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/frobnicate-generic.mlir > /dev/null 2> %t/frobnicate-generic.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=GENERIC < %t/frobnicate-generic.tr.err
//
// RUN: sh -c 'coda-opt %t/coda-type.mlir > /dev/null 2> %t/coda-type.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=TYPE < %t/coda-type.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/coda-type.mlir > /dev/null 2> %t/coda-type.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=TYPE < %t/coda-type.tr.err
//
// RUN: sh -c 'coda-opt %t/coda-attribute.mlir > /dev/null 2> %t/coda-attribute.opt.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=ATTRIBUTE < %t/coda-attribute.opt.err
// RUN: sh -c 'coda-translate --coda-summary %t/coda-attribute.mlir > /dev/null 2> %t/coda-attribute.tr.err; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT
// RUN: FileCheck %s --check-prefix=ATTRIBUTE < %t/coda-attribute.tr.err

// EXIT: {{^}}exit=1{{$}}

// CUSTOM: {{.*}}frobnicate-custom.mlir:2:8: error: custom op 'coda.frobnicate' is unknown

// GENERIC: {{.*}}frobnicate-generic.mlir:2:8: error: unregistered operation 'coda.frobnicate' found in dialect ('coda') that does not allow unknown operations

// TYPE: {{.*}}coda-type.mlir:1:24: error: dialect 'coda' provides no type parsing hook

// ATTRIBUTE: {{.*}}coda-attribute.mlir:1:38: error: dialect 'coda' provides no attribute parsing hook

//--- frobnicate-custom.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = coda.frobnicate %x : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
//--- frobnicate-generic.mlir
func.func @f(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = "coda.frobnicate"(%x) : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
//--- coda-type.mlir
func.func @f(%x: !coda.frob) {
  return
}
//--- coda-attribute.mlir
func.func @f() attributes {a = #coda.frob} {
  return
}
