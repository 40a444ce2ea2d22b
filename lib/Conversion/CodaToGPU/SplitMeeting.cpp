//===- SplitMeeting.cpp - the splits of a tile meet -----------------------===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "SplitMeeting.h"

#include "KernelFunction.h"
#include "VectorAccess.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::coda;

std::pair<Value, SmallVector<Value>> mlir::coda::emitSplitMeeting(
    OpBuilder &b, Location loc, const GemmKernelPlan &plan,
    const SplitMeeting &meeting, ArrayRef<Value> accumulators) {
  MLIRContext *context = b.getContext();
  auto index = [&](int64_t value) -> Value {
    return arith::ConstantIndexOp::create(b, loc, value);
  };
  Value scratch = meeting.scratch, tile = meeting.tile,
        consumer = meeting.consumer, thread = meeting.thread,
        leader = meeting.leader, splitCount = meeting.splitCount;
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  auto i32Constant = [&](int32_t value) -> Value {
    return arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(value));
  };
  auto meet = [&] {
    NVVM::BarrierOp::create(b, loc, Type(), meeting.barrier, i32Constant(128),
                            NVVM::BarrierReductionAttr(), Value());
  };
  auto onLeader = [&](function_ref<void()> body) {
    scf::IfOp::create(b, loc, leader, [&](OpBuilder &, Location) {
      body();
      scf::YieldOp::create(b, loc);
    });
  };
  // The order of the last arrival: splits - 1, of this launch's splits.
  Value lastOrder = arith::IndexCastOp::create(
      b, loc, i32, arith::SubIOp::create(b, loc, splitCount, index(1)));
  // The consumer's counters of the tile: arrived, then stored.
  Value counter = arith::MulIOp::create(
      b, loc,
      arith::AddIOp::create(
          b, loc, arith::MulIOp::create(b, loc, tile, index(plan.consumers)),
          consumer),
      index(2));
  Value arrived = getElementAddress(b, loc, scratch, i32, counter);
  Value stored = getElementAddress(
      b, loc, scratch, i32, arith::AddIOp::create(b, loc, counter, index(1)));
  auto workgroup =
      gpu::AddressSpaceAttr::get(context, gpu::AddressSpace::Workgroup);
  Value word = memref::ViewOp::create(
      b, loc, MemRefType::get({1}, i32, MemRefLayoutAttrInterface(), workgroup),
      meeting.smem,
      arith::AddIOp::create(b, loc, index(plan.arrivalOffset()),
                            arith::MulIOp::create(b, loc, consumer, index(4))),
      ValueRange());
  onLeader([&] {
    Value order = LLVM::AtomicRMWOp::create(
        b, loc, LLVM::AtomicBinOp::add, arrived, i32Constant(1),
        LLVM::AtomicOrdering::monotonic, "device");
    memref::StoreOp::create(b, loc, order, word, index(0));
  });
  meet();
  Value order = memref::LoadOp::create(b, loc, word, index(0));
  Value last =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, order, lastOrder);

  // The float offset of 4-float chunk `chunk` of the thread's accumulators
  // in the partials of split slot `slot`: per tile, slot and consumer, the
  // warpgroup's chunks chunk-major, so that a warp's stores are 512
  // contiguous bytes.
  int64_t chunks = plan.slabs * plan.boxes * (kTileN / 2) / 4;
  auto chunkOffset = [&](Value slot, int64_t chunk) -> Value {
    Value part = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(
            b, loc,
            arith::AddIOp::create(
                b, loc,
                arith::MulIOp::create(b, loc, tile, index(plan.splits - 1)),
                slot),
            index(plan.consumers)),
        consumer);
    return arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(b, loc, part,
                              index(plan.partialBytesPerConsumer() / 4)),
        arith::AddIOp::create(
            b, loc, index(plan.splitCounterBytes() / 4 + chunk * 128 * 4),
            arith::MulIOp::create(b, loc, thread, index(4))));
  };
  auto chunkType = VectorType::get({4}, f32);
  // Register e of chunk `chunk`: accumulator chunk / 16, element
  // 4 · (chunk % 16) + e.
  auto registerOf = [](int64_t chunk, int64_t e) {
    return std::make_pair(chunk / 16, 4 * (chunk % 16) + e);
  };
  // The chunks of a slab, and whether it holds rows: the accumulators of a
  // slab past the rows hold no row's values and are neither stored nor
  // added.
  int64_t slabChunks = chunks / plan.slabs;
  auto hasRows = [&](int64_t slab) -> Value {
    return arith::CmpIOp::create(
        b, loc, arith::CmpIPredicate::ult,
        arith::AddIOp::create(b, loc, meeting.firstRow, index(64 * slab)),
        meeting.rows);
  };

  SmallVector<Type> types = llvm::map_to_vector(
      accumulators, [](Value value) { return value.getType(); });
  auto combine = scf::IfOp::create(b, loc, types, last, /*withElse=*/true);
  {
    // The last arrival: once every earlier one has stored, add theirs.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(combine.thenBlock());
    onLeader([&] {
      scf::WhileOp::create(
          b, loc, TypeRange(), ValueRange(),
          [&](OpBuilder &, Location, ValueRange) {
            Value count = LLVM::LoadOp::create(
                b, loc, i32, stored, 4, false, false, false, false,
                LLVM::AtomicOrdering::acquire, "device");
            scf::ConditionOp::create(
                b, loc,
                arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, count,
                                      lastOrder),
                ValueRange());
          },
          [&](OpBuilder &, Location, ValueRange) {
            scf::YieldOp::create(b, loc);
          });
      // Every split of this launch has counted: the next launch starts
      // from zero.
      for (Value address : {arrived, stored})
        LLVM::StoreOp::create(b, loc, i32Constant(0), address, 4);
    });
    meet();
    // Slab by slab, the slabs that hold rows, one slot at a time (a rolled
    // loop that carries only the slab's accumulators, so that at most one
    // slot's loads are in flight beside them).
    SmallVector<Value> sums(accumulators);
    for (int64_t slab = 0; slab < plan.slabs; ++slab) {
      // The slab's accumulators, [box].
      MutableArrayRef<Value> slabSums =
          MutableArrayRef(sums).slice(slab * plan.boxes, plan.boxes);
      auto add = scf::IfOp::create(b, loc, ValueRange(slabSums).getTypes(),
                                   hasRows(slab), /*withElse=*/true);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(add.elseBlock());
      scf::YieldOp::create(b, loc, ValueRange(slabSums));
      b.setInsertionPointToStart(add.thenBlock());
      // The address of the slot's first chunk of the slab, carried from
      // slot to slot: addresses computed from the slot index took LLVM's
      // loop strength reduction most of a second (bench/NOTES.md §75).
      int64_t firstChunk = slab * slabChunks;
      Value start = getElementAddress(b, loc, scratch, f32,
                                      chunkOffset(index(0), firstChunk));
      SmallVector<Value> initial(slabSums);
      initial.push_back(start);
      // Slot s + 1 follows slot s by the tile's consumers' partials.
      int64_t slotStride = plan.consumers * plan.partialBytesPerConsumer() / 4;
      auto slots = scf::ForOp::create(
          b, loc, index(0), arith::SubIOp::create(b, loc, splitCount, index(1)),
          index(1), initial,
          [&](OpBuilder &, Location, Value, ValueRange carried) {
            SmallVector<Value> added(carried.drop_back());
            Value slotStart = carried.back();
            for (int64_t chunk = firstChunk; chunk < firstChunk + slabChunks;
                 ++chunk) {
              Value partial = LLVM::LoadOp::create(
                  b, loc, chunkType,
                  getElementAddress(b, loc, slotStart, f32,
                                    index((chunk - firstChunk) * 128 * 4)),
                  16);
              for (int64_t e = 0; e < 4; ++e) {
                auto [accumulator, element] = registerOf(chunk, e);
                Value &sum = added[accumulator - slab * plan.boxes];
                Value value = arith::AddFOp::create(
                    b, loc, LLVM::ExtractValueOp::create(b, loc, sum, element),
                    LLVM::ExtractElementOp::create(b, loc, partial,
                                                   i32Constant(int32_t(e))));
                sum = LLVM::InsertValueOp::create(b, loc, sum, value, element);
              }
            }
            added.push_back(
                getElementAddress(b, loc, slotStart, f32, index(slotStride)));
            scf::YieldOp::create(b, loc, added);
          });
      keepRolled(slots);
      scf::YieldOp::create(b, loc, slots.getResults().drop_back());
      llvm::copy(add.getResults(), slabSums.begin());
    }
    scf::YieldOp::create(b, loc, sums);
  }
  {
    // An earlier arrival: store the accumulators, then count them.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(combine.elseBlock());
    Value slot = arith::IndexCastUIOp::create(b, loc, b.getIndexType(), order);
    for (int64_t slab = 0; slab < plan.slabs; ++slab) {
      auto store = scf::IfOp::create(b, loc, hasRows(slab));
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(store.thenBlock());
      for (int64_t chunk = slab * slabChunks; chunk < (slab + 1) * slabChunks;
           ++chunk) {
        Value values = LLVM::PoisonOp::create(b, loc, chunkType);
        for (int64_t e = 0; e < 4; ++e) {
          auto [accumulator, element] = registerOf(chunk, e);
          values = LLVM::InsertElementOp::create(
              b, loc, values,
              LLVM::ExtractValueOp::create(b, loc, accumulators[accumulator],
                                           element),
              i32Constant(int32_t(e)));
        }
        LLVM::StoreOp::create(
            b, loc, values,
            getElementAddress(b, loc, scratch, f32, chunkOffset(slot, chunk)),
            16);
      }
    }
    meet();
    onLeader([&] {
      LLVM::FenceOp::create(b, loc, LLVM::AtomicOrdering::release, "device");
      LLVM::AtomicRMWOp::create(b, loc, LLVM::AtomicBinOp::add, stored,
                                i32Constant(1), LLVM::AtomicOrdering::monotonic,
                                "device");
    });
    scf::YieldOp::create(b, loc, accumulators);
  }
  return {last, SmallVector<Value>(combine.getResults())};
}
