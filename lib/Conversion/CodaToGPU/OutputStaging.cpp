//===- OutputStaging.cpp - results that leave a GEMM tile by TMA ----------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A chunk goes out in three steps: every thread writes its pairs into the
// warpgroup's buffer, makes them visible to the async proxy
// (fence.proxy.async.shared::cta) and meets the others at the warpgroup's
// named barrier; then the first thread issues the TMA stores and commits
// them as one bulk group. Before the buffer is written again that thread
// waits until the group has read it (cp.async.bulk.wait_group.read), and
// the warpgroup meets at the barrier once more. TMA clips the rows past M
// and the columns past W, so the writes need no predicates. Results staged
// over ring inputs go out the same way from the ring's boxes, in a group
// of their own after the slab's last chunk, so that the buffer can be
// acquired while they are still being read; the ring steps are released
// once they have been (awaitReads).
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

OutputStaging::OutputStaging(OpBuilder &b, Location loc,
                             const GemmKernelPlan &plan,
                             const StagingFrame &frame)
    : b(b), loc(loc), plan(plan), frame(frame),
      pairs(b, loc, frame.smem, frame.offset, frame.rowInSlab, frame.quad) {}

Value OutputStaging::index(int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

int64_t OutputStaging::chunkOffset(int64_t slot) const {
  return slot * 64 * plan.stagingColumns * 2;
}

void OutputStaging::meet() {
  NVVM::BarrierOp::create(
      b, loc, Type(), frame.barrier,
      arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(128)),
      NVVM::BarrierReductionAttr(), Value());
}

/// On the warpgroup's first thread, waits until all but its `pending` most
/// recent bulk groups have read shared memory (`untilRead`) or have
/// completed.
static void waitForStores(OpBuilder &b, Location loc, Value leader,
                          bool untilRead, int64_t pending = 0) {
  scf::IfOp::create(b, loc, leader, [&](OpBuilder &, Location) {
    NVVM::CpAsyncBulkWaitGroupOp::create(
        b, loc, pending, untilRead ? b.getUnitAttr() : UnitAttr());
    scf::YieldOp::create(b, loc);
  });
}

void OutputStaging::acquire() {
  waitForStores(b, loc, frame.leader, /*untilRead=*/true, groupsAfterBuffer);
  meet();
}

void OutputStaging::awaitReads() {
  waitForStores(b, loc, frame.leader, /*untilRead=*/true);
  groupsAfterBuffer = 0;
  meet();
}

void OutputStaging::write(int64_t slot, int64_t half, int64_t pair,
                          Value packed) {
  LLVM::StoreOp::create(b, loc, packed,
                        pairs.pointerInRun(b, loc,
                                           8 * pair % plan.stagingColumns, half,
                                           chunkOffset(slot)),
                        4);
}

void OutputStaging::flush(int64_t slab, std::optional<int64_t> column,
                          ArrayRef<BoxesOverInput> overInputs) {
  NVVM::FenceProxyOp::create(
      b, loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  meet();
  auto workgroup =
      gpu::AddressSpaceAttr::get(b.getContext(), gpu::AddressSpace::Workgroup);
  scf::IfOp::create(b, loc, frame.leader, [&](OpBuilder &, Location) {
    Value row = frame.shape.slabRow(b, loc, frame.slabRow0, slab);
    Value slabColumn = frame.shape.slabColumn(b, loc, frame.n0, slab);
    Value rowInside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            row, frame.rows);
    // `boxes` 64 x 64 boxes from shared-memory byte offset `offset` to
    // tile columns `first`, `first` + 64, ...
    auto store = [&](Value map, Value offset, int64_t first, int64_t boxes) {
      for (int64_t box = 0; box < boxes; ++box) {
        Value outputColumn =
            arith::AddIOp::create(b, loc, slabColumn, index(first + 64 * box));
        Value inside = arith::AndIOp::create(
            b, loc, rowInside,
            arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                  outputColumn, index(plan.width)));
        auto tensorMap = cast<nvgpu::TensorMapDescriptorType>(map.getType());
        auto boxType =
            MemRefType::get({64, 64}, tensorMap.getTensor().getElementType(),
                            MemRefLayoutAttrInterface(), workgroup);
        Value source = memref::ViewOp::create(
            b, loc, boxType, frame.smem,
            arith::AddIOp::create(b, loc, offset,
                                  index(box * kSwizzledBoxBytes)),
            ValueRange());
        // TMA coordinates are innermost first: (column, row).
        nvgpu::TmaAsyncStoreOp::create(b, loc, source, map,
                                       ValueRange{outputColumn, row}, inside);
      }
    };
    if (column) {
      int64_t slot = 0;
      for (auto [map, staged] : llvm::zip_equal(frame.maps, plan.stagedResults))
        if (staged)
          store(map,
                arith::AddIOp::create(b, loc, frame.offset,
                                      index(chunkOffset(slot++))),
                *column, plan.stagingColumns / 64);
      NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
    }
    if (!overInputs.empty()) {
      for (const BoxesOverInput &boxes : overInputs)
        store(boxes.map, boxes.offset, 0, kTileN / 64);
      NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
    }
    scf::YieldOp::create(b, loc);
  });
  if (column)
    groupsAfterBuffer = 0;
  if (!overInputs.empty())
    ++groupsAfterBuffer;
}

void OutputStaging::drain(OpBuilder &b, Location loc, Value leader) {
  waitForStores(b, loc, leader, /*untilRead=*/false);
}
