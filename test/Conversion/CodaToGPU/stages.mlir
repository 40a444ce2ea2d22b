// RUN: coda-opt %s --split-input-file --convert-coda-to-gpu="stages=1" --verify-diagnostics

// A ring of one slot cannot overlap loads with wgmma.
// expected-error @below {{stages = 1: the mainloop's ring needs at least 2 slots to overlap loads with wgmma}}
module {
}
