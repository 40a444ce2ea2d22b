// RUN: coda-opt %s --convert-coda-to-gpu="stages=7" --verify-diagnostics

// The ring of 32 KiB slots must fit the shared memory of one CTA.
// expected-error @below {{stages = 7 is outside [2, 6]: the ring of 32 KiB slots must fit the 227 KiB of shared memory}}
module {
}
