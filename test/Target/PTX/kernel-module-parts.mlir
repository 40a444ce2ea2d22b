// RUN: split-file %s %t
// RUN: coda-translate --coda-to-ptx %t/five-kernels.mlir -o %t/five.ptx
// RUN: FileCheck %s --check-prefix=PARTS < %t/five.ptx
// RUN: coda-translate --coda-to-ptx %t/shared-global.mlir -o %t/shared.ptx
// RUN: FileCheck %s --check-prefix=WHOLE < %t/shared.ptx
// RUN: coda-translate --coda-to-ptx %t/device-function.mlir -o %t/device.ptx
// RUN: FileCheck %s --check-prefix=DEVICE < %t/device.ptx

// coda-lower-kernel-modules lowers a kernel module's kernels in up to four
// parts in parallel and joins their PTX: one header, each external
// declaration once, the kernels in their order.
// PARTS:      .version 8.0
// PARTS-NEXT: .target sm_90a
// PARTS-NEXT: .address_size 64
// PARTS-NOT:  .version
// PARTS:      .extern .shared .align 1024 .b8 coda_smem[];
// PARTS-NOT:  .extern
// PARTS:      .visible .entry first(
// PARTS-NOT:  .extern
// PARTS:      .visible .entry second(
// PARTS-NOT:  .extern
// PARTS:      .visible .entry third(
// PARTS-NOT:  .extern
// PARTS:      .visible .entry fourth(
// PARTS-NOT:  .extern
// PARTS:      .visible .entry fifth(
// PARTS-NOT:  .version
// PARTS-NOT:  .extern

// A module with a global in device memory lowers whole, which defines it
// once.
// WHOLE:      .visible .global .align 4 .u32 counter;
// WHOLE-NOT:  .global .align 4 .u32 counter
// WHOLE:      .visible .entry first(
// WHOLE:      ld.global.b32 {{.*}}[counter]
// WHOLE:      .visible .entry second(
// WHOLE:      ld.global.b32 {{.*}}[counter]

// So does a module with a device function: it is defined once.
// DEVICE:     .visible .func helper(
// DEVICE-NOT: .func helper(
// DEVICE:     .visible .entry first(
// DEVICE:     .visible .entry second(
// DEVICE:     .visible .entry third(
// DEVICE:     st.global.b32 {{.*}}, 7;

//--- five-kernels.mlir
// Each kernel copies the first byte of the dynamic shared memory to %out.
module attributes {gpu.container_module} {
  gpu.module @coda_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">] {
    llvm.mlir.global external @coda_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
    gpu.func @first(%out: !llvm.ptr) kernel {
      %a = llvm.mlir.addressof @coda_smem : !llvm.ptr<3>
      %v = llvm.load %a : !llvm.ptr<3> -> i8
      llvm.store %v, %out : i8, !llvm.ptr
      gpu.return
    }
    gpu.func @second(%out: !llvm.ptr) kernel {
      %a = llvm.mlir.addressof @coda_smem : !llvm.ptr<3>
      %v = llvm.load %a : !llvm.ptr<3> -> i8
      llvm.store %v, %out : i8, !llvm.ptr
      gpu.return
    }
    gpu.func @third(%out: !llvm.ptr) kernel {
      %a = llvm.mlir.addressof @coda_smem : !llvm.ptr<3>
      %v = llvm.load %a : !llvm.ptr<3> -> i8
      llvm.store %v, %out : i8, !llvm.ptr
      gpu.return
    }
    gpu.func @fourth(%out: !llvm.ptr) kernel {
      %a = llvm.mlir.addressof @coda_smem : !llvm.ptr<3>
      %v = llvm.load %a : !llvm.ptr<3> -> i8
      llvm.store %v, %out : i8, !llvm.ptr
      gpu.return
    }
    gpu.func @fifth(%out: !llvm.ptr) kernel {
      %a = llvm.mlir.addressof @coda_smem : !llvm.ptr<3>
      %v = llvm.load %a : !llvm.ptr<3> -> i8
      llvm.store %v, %out : i8, !llvm.ptr
      gpu.return
    }
  }
}

//--- shared-global.mlir
module attributes {gpu.container_module} {
  gpu.module @coda_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">] {
    llvm.mlir.global external @counter(0 : i32) {addr_space = 1 : i32} : i32
    gpu.func @first(%out: !llvm.ptr) kernel {
      %a = llvm.mlir.addressof @counter : !llvm.ptr<1>
      %v = llvm.load %a : !llvm.ptr<1> -> i32
      llvm.store %v, %out : i32, !llvm.ptr
      gpu.return
    }
    gpu.func @second(%out: !llvm.ptr) kernel {
      %a = llvm.mlir.addressof @counter : !llvm.ptr<1>
      %v = llvm.load %a : !llvm.ptr<1> -> i32
      llvm.store %v, %out : i32, !llvm.ptr
      gpu.return
    }
  }
}

//--- device-function.mlir
module attributes {gpu.container_module} {
  gpu.module @coda_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">] {
    func.func @helper(%out: !llvm.ptr) {
      %c = llvm.mlir.constant(7 : i32) : i32
      llvm.store %c, %out : i32, !llvm.ptr
      func.return
    }
    gpu.func @first(%out: !llvm.ptr) kernel {
      %c = llvm.mlir.constant(1 : i32) : i32
      llvm.store %c, %out : i32, !llvm.ptr
      gpu.return
    }
    gpu.func @second(%out: !llvm.ptr) kernel {
      %c = llvm.mlir.constant(2 : i32) : i32
      llvm.store %c, %out : i32, !llvm.ptr
      gpu.return
    }
    gpu.func @third(%out: !llvm.ptr) kernel {
      func.call @helper(%out) : (!llvm.ptr) -> ()
      gpu.return
    }
  }
}
