// A declaration has no body to compile: --coda-to-ptx compiles the
// module's other functions and leaves it out of the launch plan.
//
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx --coda-launch-plan=%t.json
// RUN: FileCheck %s < %t.json
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// CHECK:     "functions": [
// CHECK:       "name": "scale"
// CHECK-NOT:   "name": "declared"
// PTX:       .entry scale_map0

func.func @scale(%x: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %s = coda.scale %x {factor = 2.0 : f32} : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %s : tensor<?x64xf32>
}

func.func private @declared(%x: tensor<?x64xf32>) -> tensor<?x64xf32>
