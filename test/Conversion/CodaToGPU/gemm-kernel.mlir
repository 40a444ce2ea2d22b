// RUN: coda-opt %s --split-input-file --convert-coda-to-gpu | FileCheck %s
// RUN: coda-opt %s --split-input-file --convert-coda-to-gpu="stages=2" | FileCheck %s --check-prefix=TWO

// A GEMM with a bias, SiLU and a residual tile becomes one kernel: tensor
// maps and pointers in, a TMA + mbarrier ring, wgmma on two m64 slabs, and
// the epilogue per register with predicated loads and stores.
// CHECK-LABEL: func.func @fused
//       CHECK:   coda.gemm {{.*}}{coda.kernel = @coda_kernels::@fused_gemm0}
//       CHECK: gpu.module @coda_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
//       CHECK:   memref.global "public" @coda_smem : memref<0xi8, #gpu.address_space<workgroup>> {alignment = 1024 : i64}
//       CHECK:   gpu.func @fused_gemm0(%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) kernel attributes {known_block_size = array<i32: 128, 1, 1>}
//       CHECK:     nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
//       CHECK:     nvgpu.mbarrier.arrive.expect_tx
//       CHECK:     nvgpu.tma.async.load
//       CHECK:     scf.for
//       CHECK:       nvgpu.mbarrier.try_wait.parity
//       CHECK:       nvvm.wgmma.fence.aligned
//   CHECK-COUNT-8:   nvvm.wgmma.mma_async {{.*}}<m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<bf16>, <one>, <row>], B[<bf16>, <one>, <col>]
//       CHECK:       nvvm.wgmma.commit.group.sync.aligned
//       CHECK:       nvvm.wgmma.wait.group.sync.aligned 1
//       CHECK:     nvvm.wgmma.wait.group.sync.aligned 0
//       CHECK:     llvm.extractvalue
//       CHECK:     scf.if
//       CHECK:       llvm.load
//       CHECK:       math.exp
//       CHECK:       arith.truncf {{.*}} : f32 to bf16
//       CHECK:       llvm.store
// TWO: num_barriers = 2
func.func @fused(%x: tensor<?x256xbf16>, %w: tensor<384x256xbf16>, %b: tensor<384xbf16>, %r: tensor<?x384xbf16>) -> tensor<?x384xbf16> {
  %y = coda.gemm %x, [%w] inputs(%b, %r) : (tensor<?x256xbf16>, tensor<384x256xbf16>, tensor<384xbf16>, tensor<?x384xbf16>) -> tensor<?x384xbf16> {
  ^bb0(%acc: tensor<?x384xf32>, %bias: tensor<384xf32>, %res: tensor<?x384xf32>):
    %s = coda.add %acc, %bias : (tensor<?x384xf32>, tensor<384xf32>) -> tensor<?x384xf32>
    %a = coda.silu %s : (tensor<?x384xf32>) -> tensor<?x384xf32>
    %o = coda.add %a, %res : (tensor<?x384xf32>, tensor<?x384xf32>) -> tensor<?x384xf32>
    coda.yield %o : tensor<?x384xf32>
  }
  return %y : tensor<?x384xbf16>
}

// -----

// Every GEMM gets its own kernel, all in one kernel module.
// CHECK-LABEL: func.func @two
//       CHECK:   coda.kernel = @coda_kernels::@two_gemm0
//       CHECK:   coda.kernel = @coda_kernels::@two_gemm1
//       CHECK: gpu.module @coda_kernels
//       CHECK:   gpu.func @two_gemm0
//       CHECK:   gpu.func @two_gemm1
func.func @two(%x: tensor<?x64xbf16>, %w0: tensor<64x64xbf16>, %w1: tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  %a = coda.gemm %x, [%w0] : (tensor<?x64xbf16>, tensor<64x64xbf16>) -> tensor<?x64xbf16> {
  ^bb0(%acc: tensor<?x64xf32>):
    coda.yield %acc : tensor<?x64xf32>
  }
  %b = coda.gemm %a, [%w1] : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %b : tensor<?x32xbf16>
}

// -----

// The O-projection of the canonical block: a residual tile, h = x1 * gamma,
// and partial sums of squares combined across the quad of lanes that holds
// a row, stored once per row and N-tile.
// CHECK-LABEL: func.func @oproj
//       CHECK: gpu.func @oproj_gemm0(%{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr)
//       CHECK:   gpu.shuffle  xor %{{.+}}, %{{.+}}, %{{.+}} : f32
//       CHECK:   gpu.shuffle  xor
//       CHECK:   scf.if
//       CHECK:     llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr
func.func @oproj(%y: tensor<?x256xbf16>, %w: tensor<256x256xbf16>, %x0: tensor<?x256xbf16>, %g: tensor<256xbf16>) -> (tensor<?x256xbf16>, tensor<?x?xf32>, tensor<?x256xbf16>) {
  %x1, %p, %h = coda.gemm %y, [%w] inputs(%x0, %g) : (tensor<?x256xbf16>, tensor<256x256xbf16>, tensor<?x256xbf16>, tensor<256xbf16>) -> (tensor<?x256xbf16>, tensor<?x?xf32>, tensor<?x256xbf16>) {
  ^bb0(%acc: tensor<?x256xf32>, %res: tensor<?x256xf32>, %gamma: tensor<256xf32>):
    %x = coda.add %res, %acc : (tensor<?x256xf32>, tensor<?x256xf32>) -> tensor<?x256xf32>
    %s = coda.partial_reduce %x {kind = "sum_squares"} : (tensor<?x256xf32>) -> tensor<?x?xf32>
    %m = coda.mul %x, %gamma : (tensor<?x256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
    coda.yield %x, %s, %m : tensor<?x256xf32>, tensor<?x?xf32>, tensor<?x256xf32>
  }
  return %x1, %p, %h : tensor<?x256xbf16>, tensor<?x?xf32>, tensor<?x256xbf16>
}

// -----

// The reduction that finishes a GEMM's partial sums of squares into rstd:
// one thread per row sums ceil(256 / 128) = 2 partials.
// CHECK-LABEL: func.func @finish
//       CHECK:   coda.reduce_partials {{.*}}coda.kernel = @coda_kernels::@finish_reduce0
//       CHECK: gpu.func @finish_reduce0(%{{.+}}: i32, %{{.+}}: !llvm.ptr, %{{.+}}: !llvm.ptr) kernel
//       CHECK:   scf.for %{{.+}} = %{{.+}} to %{{.+}} step
//       CHECK:     llvm.load %{{.+}} : !llvm.ptr -> f32
//       CHECK:   math.rsqrt
func.func @finish(%y: tensor<?x256xbf16>, %w: tensor<256x256xbf16>) -> tensor<?x1xf32> {
  %p = coda.gemm %y, [%w] : (tensor<?x256xbf16>, tensor<256x256xbf16>) -> tensor<?x?xf32> {
  ^bb0(%acc: tensor<?x256xf32>):
    %s = coda.partial_reduce %acc {kind = "sum_squares"} : (tensor<?x256xf32>) -> tensor<?x?xf32>
    coda.yield %s : tensor<?x?xf32>
  }
  %r = coda.reduce_partials %p {kind = "rstd", count = 256 : i64, epsilon = 1.0e-05 : f32} : (tensor<?x?xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}
