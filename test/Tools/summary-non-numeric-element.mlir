// --coda-summary counts only integer and floating-point tensors as
// parameters; a static tensor argument of index, complex or vector elements
// (valid IR that coda-opt takes) is skipped, not sized.
//
// RUN: split-file %s %t
// RUN: coda-opt %t/index.mlir -o /dev/null
// RUN: coda-opt %t/complex.mlir -o /dev/null
// RUN: coda-opt %t/vector.mlir -o /dev/null
// RUN: sh -c 'coda-translate --coda-summary %t/index.mlir > %t/index.out 2>&1; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT0
// RUN: FileCheck %s < %t/index.out
// RUN: sh -c 'coda-translate --coda-summary %t/complex.mlir > %t/complex.out 2>&1; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT0
// RUN: FileCheck %s < %t/complex.out
// RUN: sh -c 'coda-translate --coda-summary %t/vector.mlir > %t/vector.out 2>&1; echo "exit=$?"' | FileCheck %s --check-prefix=EXIT0
// RUN: FileCheck %s < %t/vector.out

// EXIT0: {{^}}exit=0{{$}}
// CHECK: function @f: 2 arguments, 1 results, 1 coda ops
// CHECK: parameters: 0 static tensors, 0 elements, 0.0 MiB
// CHECK-NOT: Stack dump

//--- index.mlir
func.func @f(%x: tensor<?x64xbf16>, %i: tensor<4xindex>) -> tensor<?x64xbf16> {
  %y = coda.relu %x : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
//--- complex.mlir
func.func @f(%x: tensor<?x64xbf16>, %c: tensor<4xcomplex<f32>>) -> tensor<?x64xbf16> {
  %y = coda.relu %x : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
//--- vector.mlir
func.func @f(%x: tensor<?x64xbf16>, %v: tensor<4xvector<4xf32>>) -> tensor<?x64xbf16> {
  %y = coda.relu %x : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
