//===- SplitMeeting.h - the splits of a tile meet ---------------*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A tile split over its reduction (GemmKernelPlan::splits) runs as several
// units. After its mainloop, each consumer warpgroup of a unit meets the
// other splits of its tile in the kernel's scratch: two 4-byte counters per
// split tile and consumer (arrived, stored), then per split tile, split
// slot and consumer that warpgroup's f32 accumulators.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_SPLITMEETING_H
#define CODA_LIB_CONVERSION_CODATOGPU_SPLITMEETING_H

#include "GemmKernelPlan.h"

namespace mlir::coda {

/// Where one consumer warpgroup meets the other splits of its tile.
struct SplitMeeting {
  /// The kernel's scratch (a pointer), the dynamic shared memory, and the
  /// splits this launch uses (index).
  Value scratch, smem, splitCount;
  /// The tile's number among the split tiles, the consumer warpgroup and
  /// the thread in it (index), whether the thread is the warpgroup's first
  /// (i1), and the warpgroup's named barrier (i32).
  Value tile, consumer, thread, leader, barrier;
  /// The warpgroup's first row and the rows (index): only the m64 slabs
  /// that hold rows below `rows` store and add partials.
  Value firstRow, rows;
};

/// Emits the meeting: returns whether this warpgroup arrived last, and then
/// its `accumulators` ([slab][box] structs of 64 f32) plus the other
/// splits' in the slabs that hold rows, else `accumulators`. The first
/// thread counts the arrival (`arrived`, a device-scope atomic) and passes
/// its order to the warpgroup through shared memory (plan.arrivalOffset());
/// an earlier arrival stores its accumulators to its slot and counts them
/// `stored` behind a release fence; the last waits with acquire loads until
/// all are, adds them one slot at a time and zeroes both counters for the
/// next launch.
std::pair<Value, SmallVector<Value>>
emitSplitMeeting(OpBuilder &builder, Location loc, const GemmKernelPlan &plan,
                 const SplitMeeting &meeting, ArrayRef<Value> accumulators);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_SPLITMEETING_H
