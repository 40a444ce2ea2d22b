// RUN: coda-opt %s --coda-fuse-pipeline --convert-coda-to-gpu | FileCheck %s
// RUN: coda-translate --coda-to-ptx %s -o %t.ptx
// RUN: %ptxas -arch=sm_90a %t.ptx -o /dev/null
// REQUIRES: ptxas

// dx = du · Wu + dg · Wg: the up product's epilogue adds the gate product,
// so both become one GEMM whose kernel receives the tensor maps of both a's
// (256-row boxes) and both weights (64-row boxes) and runs the products'
// k-tiles back to back: ceil(72 / 64) = 2 of the up product, then
// ceil(200 / 64) = 4 of the gate product. The producer picks each k-tile's
// maps and its k within its product: k-tiles from 2 on read the gate
// product at k-tile - 2. TMA fills each product's last k-tile past its K
// with zeros. Each a arrives a second time in 64-row boxes (arguments 4
// and 5, after the weights), chosen per k-tile as the a is.
// CHECK-LABEL: func.func @swiglu_input_gradient
//       CHECK:   coda.gemm %{{.*}}, [%{{.*}}] + %{{.*}}, [%{{.*}}] {b_layout = "kn", {{.*}}tensor_map_rows = array<i64: 256, 256, 64, 64, 64, 64>, tiles_n = 1 : i64}}
//       CHECK: gpu.func @swiglu_input_gradient_gemm0(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr, %arg3: !llvm.ptr, %arg4: !llvm.ptr, %arg5: !llvm.ptr, %arg6: i32, %arg7: !llvm.ptr)
//       CHECK:   %[[KTILES:.+]] = arith.constant 6 : index
//       CHECK:   scf.for %{{.*}} = %{{.*}} to %[[KTILES]]
//       CHECK:     %[[SECOND:.+]] = arith.cmpi uge, %[[K:.+]], %c2 : index
//  CHECK-NEXT:     arith.select %[[SECOND]], %arg1, %arg0 : !llvm.ptr
//  CHECK-NEXT:     arith.select %[[SECOND]], %arg5, %arg4 : !llvm.ptr
//       CHECK:     arith.subi %[[K]], %{{.*}} : index
//       CHECK:     arith.select %[[SECOND]], %{{.*}}, %{{.*}} : !llvm.ptr
//       CHECK:     nvgpu.tma.async.load
func.func @swiglu_input_gradient(%dg: tensor<?x200xbf16>, %du: tensor<?x72xbf16>, %wg: tensor<200x128xbf16>, %wu: tensor<72x128xbf16>) -> tensor<?x128xbf16> {
  %g = coda.matmul %dg, %wg : (tensor<?x200xbf16>, tensor<200x128xbf16>) -> tensor<?x128xbf16>
  %u = coda.matmul %du, %wu : (tensor<?x72xbf16>, tensor<72x128xbf16>) -> tensor<?x128xbf16>
  %dx = coda.add %u, %g : (tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16>
  return %dx : tensor<?x128xbf16>
}
