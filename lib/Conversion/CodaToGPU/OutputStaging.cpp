//===- OutputStaging.cpp - results that leave a GEMM tile by TMA ----------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A chunk goes out in three steps: every thread writes its pairs into the
// warpgroup's buffer, makes them visible to the async proxy
// (fence.proxy.async.shared::cta) and meets the others at the warpgroup's
// named barrier; then the first thread issues the TMA stores and commits
// them as one bulk group. Before the buffer is written again that thread
// waits until the group has read it (cp.async.bulk.wait_group.read 0), and
// the warpgroup meets at the barrier once more. TMA clips the rows past M
// and the columns past W, so the writes need no predicates.
//
//===----------------------------------------------------------------------===//

#include "OutputStaging.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/NVGPU/IR/NVGPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::coda;

/// Bytes of one 64-row, 64-column box of 16-bit elements.
constexpr int64_t kBoxBytes = 64 * 64 * 2;

OutputStaging::OutputStaging(OpBuilder &b, Location loc,
                             const GemmKernelPlan &plan,
                             const StagingFrame &frame)
    : b(b), loc(loc), plan(plan), frame(frame),
      pairs(
          b, loc,
          arith::AddIOp::create(b, loc,
                                memref::ExtractAlignedPointerAsIndexOp::create(
                                    b, loc, frame.smem),
                                frame.offset),
          frame.rowInSlab, frame.quad) {}

Value OutputStaging::index(int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

int64_t OutputStaging::boxOffset(int64_t slot, int64_t box) const {
  return slot * 64 * plan.stagingColumns * 2 + box * kBoxBytes;
}

void OutputStaging::meet() {
  NVVM::BarrierOp::create(
      b, loc, Type(), frame.barrier,
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(128)),
      NVVM::BarrierReductionAttr(), Value());
}

/// On the warpgroup's first thread, waits until its bulk stores have read
/// shared memory (`untilRead`) or have completed.
static void waitForStores(OpBuilder &b, Location loc, Value leader,
                          bool untilRead) {
  scf::IfOp::create(b, loc, leader, [&](OpBuilder &, Location) {
    NVVM::CpAsyncBulkWaitGroupOp::create(
        b, loc, 0, untilRead ? b.getUnitAttr() : UnitAttr());
    scf::YieldOp::create(b, loc);
  });
}

void OutputStaging::acquire() {
  waitForStores(b, loc, frame.leader, /*untilRead=*/true);
  meet();
}

void OutputStaging::write(int64_t slot, int64_t half, int64_t pair,
                          Value packed) {
  int64_t column = 8 * pair % plan.stagingColumns;
  LLVM::StoreOp::create(
      b, loc, packed,
      pairs.pointer(b, loc, column % 64 / 8,
                    boxOffset(slot, column / 64) + half * 8 * 128),
      4);
}

void OutputStaging::flush(int64_t slab, int64_t column) {
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  meet();
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  scf::IfOp::create(b, loc, frame.leader, [&](OpBuilder &, Location) {
    Value row = arith::AddIOp::create(b, loc, frame.slabRow0, index(64 * slab));
    Value rowInside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            row, frame.rows);
    int64_t slot = 0;
    for (auto [result, map] : llvm::enumerate(frame.maps)) {
      if (!map)
        continue;
      for (int64_t box = 0; box < plan.stagingColumns / 64; ++box) {
        Value outputColumn =
            arith::AddIOp::create(b, loc, frame.n0, index(column + 64 * box));
        Value inside = arith::AndIOp::create(
            b, loc, rowInside,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                  outputColumn, index(plan.width)));
        auto tensorMap = cast<nvgpu::TensorMapDescriptorType>(map.getType());
        auto boxType =
            MemRefType::get({64, 64}, tensorMap.getTensor().getElementType(),
                            MemRefLayoutAttrInterface(), workgroup);
        Value offset = arith::AddIOp::create(b, loc, frame.offset,
                                             index(boxOffset(slot, box)));
        Value source = memref::ViewOp::create(b, loc, boxType, frame.smem,
                                              offset, ValueRange());
        // TMA coordinates are innermost first: (column, row).
        nvgpu::TmaAsyncStoreOp::create(b, loc, source, map,
                                       ValueRange{outputColumn, row}, inside);
      }
      ++slot;
    }
    NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
    scf::YieldOp::create(b, loc);
  });
}

void OutputStaging::drain(OpBuilder &b, Location loc, Value leader) {
  waitForStores(b, loc, leader, /*untilRead=*/false);
}
