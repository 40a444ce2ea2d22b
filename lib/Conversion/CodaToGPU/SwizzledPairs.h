//===- SwizzledPairs.h - a thread's pairs in swizzled boxes ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The 16-bit tile chunks that pass through shared memory (results staged
// for TMA stores, epilogue inputs loaded through the ring) are boxes of 64
// rows by 64 columns: 128-byte rows in TMA's 128-byte swizzle, where
// 16-byte unit u of row r sits at unit u ^ (r % 8). The thread that holds
// row r and column pair 8·j + 2·quad of a box reads or writes its 4 bytes
// at unit j ^ (r % 8): a warp's 8 rows hit 8 distinct units.
//
// Boxes start on 1 KiB boundaries of the dynamic shared memory, so a pair's
// swizzled place within its box does not depend on the box: the thread's
// eight places are offsets from the memory's start, shared by every run of
// boxes, and a run adds its own offset. Where that offset is a constant
// (a ring whose slots repeat from tile to tile), accesses become the eight
// base registers plus immediates.
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_SWIZZLEDPAIRS_H
#define CODA_LIB_CONVERSION_CODATOGPU_SWIZZLEDPAIRS_H

#include "mlir/IR/Builders.h"

namespace mlir::coda {

/// Bytes of one 64 x 64 box of 16-bit elements.
constexpr int64_t kSwizzledBoxBytes = 64 * 64 * 2;

/// One thread's pairs in a run of boxes.
class SwizzledPairs {
public:
  /// `smem`: the dynamic shared memory (i8, workgroup space, 1 KiB
  /// aligned); `runOffset`: the byte offset (index) of the run's first box
  /// in it, a multiple of 1 KiB; `rowInBox`: the thread's upper row (< 64),
  /// `quad`: its lane % 4.
  SwizzledPairs(OpBuilder &b, Location loc, Value smem, Value runOffset,
                Value rowInBox, Value quad);

  /// The shared pointer to the thread's pair at column `column` + 2·quad
  /// (`column` a multiple of 8) of a run of 64-column boxes, in its upper
  /// (`half` 0) or lower row, of the run `furtherBytes` past this one.
  Value pointerInRun(OpBuilder &b, Location loc, int64_t column, int64_t half,
                     int64_t furtherBytes = 0) const {
    return pointer(b, loc, column % 64 / 8,
                   furtherBytes + column / 64 * kSwizzledBoxBytes +
                       half * 1024);
  }

private:
  /// The shared pointer to the thread's pair at column 8·`pair` + 2·quad
  /// (`pair` < 8) of its row, `fixed` bytes further: a box's offset plus
  /// 1024 for the row 8 below.
  Value pointer(OpBuilder &b, Location loc, int64_t pair, int64_t fixed) const;

  /// The shared-window address of the memory's start (i64), the run's
  /// offset (i64), and the thread's pair in unit 0 of its row, swizzled,
  /// from a 1 KiB boundary (i64).
  Value start, runOffset, threadOffset;
};

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_SWIZZLEDPAIRS_H
