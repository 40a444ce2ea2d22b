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
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_SWIZZLEDPAIRS_H
#define CODA_LIB_CONVERSION_CODATOGPU_SWIZZLEDPAIRS_H

#include "mlir/IR/Builders.h"

namespace mlir::coda {

/// One thread's pairs in a run of boxes.
class SwizzledPairs {
public:
  /// `start`: the shared-window byte address (index) of the run's first
  /// box, a multiple of 1 KiB; `rowInBox`: the thread's upper row (< 64),
  /// `quad`: its lane % 4.
  SwizzledPairs(OpBuilder &b, Location loc, Value start, Value rowInBox,
                Value quad);

  /// The shared pointer to the thread's pair at column 8·`pair` + 2·quad
  /// (`pair` < 8) of its row, `fixed` bytes further: a box's offset plus
  /// 1024 for the row 8 below.
  Value pointer(OpBuilder &b, Location loc, int64_t pair, int64_t fixed) const;

private:
  /// The address of the thread's pair in unit 0 of its row, swizzled (i64).
  Value threadAddress;
};

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_SWIZZLEDPAIRS_H
