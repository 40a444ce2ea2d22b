//===- OutputStaging.h - results that leave a GEMM tile by TMA -*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_OUTPUTSTAGING_H
#define CODA_LIB_CONVERSION_CODATOGPU_OUTPUTSTAGING_H

#include "GemmKernelPlan.h"
#include "SwizzledPairs.h"
#include "TileShape.h"

namespace mlir::coda {

/// Where one consumer warpgroup stages its results.
struct StagingFrame {
  /// The dynamic shared memory (i8, workgroup space) and the byte offset of
  /// this consumer's buffer in it.
  Value smem, offset;
  /// Whether the thread is the warpgroup's first, and the warpgroup's named
  /// barrier (i32).
  Value leader, barrier;
  /// The output row of the warpgroup's first slab, and the tile's first
  /// output column (its first slab's).
  Value slabRow0, n0;
  /// The thread's row within a slab (upper half) and its lane % 4.
  Value rowInSlab, quad;
  /// The row count M (index).
  Value rows;
  /// Per result of the GEMM, its tensor map (staged results) or null.
  SmallVector<Value> maps;
  /// Where the warpgroup's slabs lie in the tile.
  TileShape shape;
};

/// A result staged over an input loaded through the ring: its tensor map,
/// and the shared-memory byte offset of the consumer's two 64 x 64 boxes
/// of the slab's step.
struct BoxesOverInput {
  Value map, offset;
};

/// The staging buffer of one consumer warpgroup: per staged result, a chunk
/// of 64 rows by plan.stagingColumns columns in swizzled boxes of 64
/// columns (SwizzledPairs, the layout of the results' TMA boxes). It also
/// sends out the results staged over inputs loaded through the ring.
class OutputStaging {
public:
  OutputStaging(OpBuilder &b, Location loc, const GemmKernelPlan &plan,
                const StagingFrame &frame);

  /// Waits until the buffer is free: the warpgroup's previous TMA stores
  /// of the buffer have read it (those of results staged over inputs
  /// committed since may still be reading).
  void acquire();
  /// Waits until every TMA store the warpgroup issued has read shared
  /// memory, and meets the warpgroup: the ring steps that held results
  /// staged over inputs may be released.
  void awaitReads();
  /// Writes `packed` (two 16-bit elements) of staged result number `slot`
  /// at the thread's row `half` (0: upper, 1: lower) and tile column pair
  /// 8 · `pair` + 2 · quad.
  void write(int64_t slot, int64_t half, int64_t pair, Value packed);
  /// Stores the chunk of slab `slab` that starts at tile column `column`
  /// (none: the buffer holds nothing), then the slab's boxes of the results
  /// staged over inputs: one TMA store per 64-column box inside the
  /// tensors, the buffer's and the inputs' each one bulk group.
  void flush(int64_t slab, std::optional<int64_t> column,
             ArrayRef<BoxesOverInput> overInputs = {});
  /// The chunk that holds tile column pair 8 · `pair`.
  int64_t chunkOf(int64_t pair) const { return 8 * pair / plan.stagingColumns; }

  /// Waits, on the thread that issued them, until the warpgroup's TMA
  /// stores are complete (the kernel's end).
  static void drain(OpBuilder &b, Location loc, Value leader);

private:
  Value index(int64_t value);
  /// The warpgroup's named barrier.
  void meet();
  /// Bytes from the buffer's start to the chunk of staged result number
  /// `slot`.
  int64_t chunkOffset(int64_t slot) const;

  OpBuilder &b;
  Location loc;
  const GemmKernelPlan &plan;
  const StagingFrame &frame;
  /// The thread's pairs in the buffer's boxes.
  SwizzledPairs pairs;
  /// The bulk groups committed after the buffer's last one and not waited
  /// for since (the code is straight-line, so this is static).
  int64_t groupsAfterBuffer = 0;
};

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_OUTPUTSTAGING_H
