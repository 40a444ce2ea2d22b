//===- EpilogueEmitter.h - a GEMM's epilogue on its registers ---*- C++ -*-===//
//
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef CODA_LIB_CONVERSION_CODATOGPU_EPILOGUEEMITTER_H
#define CODA_LIB_CONVERSION_CODATOGPU_EPILOGUEEMITTER_H

#include "OutputStaging.h"
#include "SwizzledPairs.h"
#include "TileShape.h"

#include <functional>
#include <optional>

namespace mlir::coda {

/// A slab of an epilogue input loaded by TMA (a ring step, or the epilogue
/// warpgroup's input buffer): the shared-memory byte offset of the
/// consumer's first 64 x 64 box (the second follows), and where the
/// thread's pairs sit in those boxes.
struct InputBoxes {
  Value offset;
  SwizzledPairs pairs;
};

/// Per epilogue input, its values at the thread's rows when it is a
/// per-row [M, 1] input the epilogue reads, [slab · 2 + half] (the upper
/// and lower row of each slab); empty for the other inputs.
using RowInputValues = SmallVector<SmallVector<Value, 4>>;

/// Loads the per-row inputs of `gemm`'s epilogue at the thread's rows,
/// `rowBase` + 64 · slab + 8 · half (a wide tile's slabs share their rows;
/// clamped to the last of `rows`), from the kernel's input pointers
/// `inputs`: issued before a tile's mainloop, their latency is spent under
/// it.
RowInputValues loadRowInputs(OpBuilder &builder, Location loc, GemmOp gemm,
                             const GemmKernelPlan &plan, Value rowBase,
                             Value rows, ValueRange inputs);

/// What one consumer warpgroup's epilogue works on.
struct EpilogueFrame {
  /// The output row of the thread's first register (slab 0, upper half).
  Value rowBase;
  /// The tile's first output column, the thread's lane, and lane % 4.
  Value n0, lane, quad;
  /// Where the consumer's slabs lie in the tile: slab s's registers hold
  /// the rows and columns from shape.slabRow(rowBase, s) and
  /// shape.slabColumn(n0, s).
  TileShape shape;
  /// The row count M (index).
  Value rows;
  /// The kernel's pointers to the epilogue inputs and to the results.
  ValueRange inputs, outputs;
  /// The per-row inputs' values at the thread's rows (loadRowInputs).
  RowInputValues rowInputs;
  /// The f32 value of accumulator register `reg` (0-63, wgmma's m64n128
  /// fragment) of slab `slab` and box `box`, built where the epilogue first
  /// reads it.
  std::function<Value(int64_t slab, int64_t box, int64_t reg)> accumulator;
  /// The staging buffer of the results that plan.stagedResults sends out
  /// by TMA.
  StagingFrame staging;
  /// Called before a slab's first batch: waits for the slab's boxes of the
  /// inputs loaded by TMA (plan.boxInputs) and returns, per epilogue
  /// input, where its boxes sit (none: read from global memory).
  std::function<SmallVector<std::optional<InputBoxes>>(int64_t slab)> enterSlab;
  /// Called after a slab's last batch (its partial sums stored, and the
  /// stores of the results staged over its steps past reading them):
  /// releases the slab's ring steps, or the epilogue warpgroup's buffer.
  std::function<void(int64_t slab)> leaveSlab;
  /// Whether each running partial sum passes through an opaque move after
  /// every batch. Then LLVM cannot sink a batch's terms past the results'
  /// predicated stores to the sum's use at the end, which keeps them live
  /// across the whole tile: in the epilogue warpgroup's 160 registers the
  /// dgrad with SwiGLU's gradient spilled 2.4 KB without it.
  bool pinsPartialSums = false;
};

/// Emits `gemm`'s epilogue region on the warpgroup's registers: each output
/// element's value from the accumulator registers and the inputs, the tile
/// results' 4-byte writes (into the staging buffer, or predicated stores to
/// global memory), and the partial reductions' one store per row and tile.
void emitEpilogue(OpBuilder &builder, Location loc, GemmOp gemm,
                  const GemmKernelPlan &plan, const EpilogueFrame &frame);

} // namespace mlir::coda

#endif // CODA_LIB_CONVERSION_CODATOGPU_EPILOGUEEMITTER_H
