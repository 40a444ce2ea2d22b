// RUN: coda-opt %s --split-input-file --coda-generate-backward --verify-diagnostics
// RUN: not coda-opt %s --split-input-file --coda-generate-backward=functions=missing 2>&1 | FileCheck %s --check-prefix=MISSING

// MISSING: error: coda-generate-backward: no function @missing to differentiate

// Attention is a boundary: the caller provides its backward.
func.func @attention(%q: tensor<?x64xbf16>, %k: tensor<?x64xbf16>, %v: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  // expected-error @+1 {{coda-generate-backward cannot differentiate through coda.attention: it is a boundary whose backward the caller provides; split @attention at the attention}}
  %o = coda.attention %q, %k, %v {num_heads = 1 : i64, num_kv_heads = 1 : i64, head_dim = 64 : i64, seq_len = 16 : i64, causal = true} : (tensor<?x64xbf16>, tensor<?x64xbf16>, tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %o : tensor<?x64xbf16>
}

// -----

// Slices that leave columns without a gradient.
func.func @gap(%x: tensor<?x64xf32>) -> (tensor<?x16xf32>, tensor<?x16xf32>) {
  %a = coda.slice %x {offset = 0 : i64, size = 16 : i64} : (tensor<?x64xf32>) -> tensor<?x16xf32>
  // expected-error @+1 {{the slices of this value leave columns [16, 32) without a gradient; coda-generate-backward needs slices that tile the 64 columns exactly}}
  %b = coda.slice %x {offset = 32 : i64, size = 16 : i64} : (tensor<?x64xf32>) -> tensor<?x16xf32>
  return %a, %b : tensor<?x16xf32>, tensor<?x16xf32>
}

// -----

// Slices that leave the last columns without a gradient.
func.func @tail(%x: tensor<?x64xf32>) -> tensor<?x32xf32> {
  // expected-error @+1 {{the slices of this value leave columns [32, 64) without a gradient}}
  %a = coda.slice %x {offset = 0 : i64, size = 32 : i64} : (tensor<?x64xf32>) -> tensor<?x32xf32>
  return %a : tensor<?x32xf32>
}

// -----

// Slices that overlap.
func.func @overlap(%x: tensor<?x64xf32>) -> (tensor<?x48xf32>, tensor<?x32xf32>) {
  %a = coda.slice %x {offset = 0 : i64, size = 48 : i64} : (tensor<?x64xf32>) -> tensor<?x48xf32>
  // expected-error @+1 {{the slices of this value overlap in columns [32, 48); coda-generate-backward needs slices that tile the 64 columns exactly}}
  %b = coda.slice %x {offset = 32 : i64, size = 32 : i64} : (tensor<?x64xf32>) -> tensor<?x32xf32>
  return %a, %b : tensor<?x48xf32>, tensor<?x32xf32>
}

// -----

// RoPE tables get no gradient, so they must be arguments.
func.func @table_computed(%x: tensor<?x16xf32>, %cos: tensor<?x8xf32>, %sin: tensor<?x8xf32>) -> tensor<?x16xf32> {
  %s = coda.scale %sin {factor = 2.0 : f32} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  // expected-error @+1 {{the RoPE tables of a function to differentiate must be its arguments, which get no gradient}}
  %r = coda.rope %x, %cos, %s {head_dim = 16 : i64} : (tensor<?x16xf32>, tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// -----

// ... and read by nothing else.
func.func @table_reused(%x: tensor<?x16xf32>, %cos: tensor<?x8xf32>, %sin: tensor<?x8xf32>) -> (tensor<?x16xf32>, tensor<?x8xf32>) {
  %r = coda.rope %x, %cos, %sin {head_dim = 16 : i64} : (tensor<?x16xf32>, tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x16xf32>
  // expected-error @+1 {{argument #1 is a RoPE table, which gets no gradient, and is also read here}}
  %c = coda.scale %cos {factor = 2.0 : f32} : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %r, %c : tensor<?x16xf32>, tensor<?x8xf32>
}

// -----

// An argument that reaches no result has a zero gradient.
// expected-error @+1 {{argument #1 of @unused reaches no result, so its gradient is zero; remove it before coda-generate-backward}}
func.func @unused(%x: tensor<?x16xf32>, %y: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %r = coda.silu %x : (tensor<?x16xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// -----

// A per-row column broadcast over the features is internal to the rewrites.
func.func @row_column(%x: tensor<?x16xf32>, %s: tensor<?x1xf32>) -> tensor<?x16xf32> {
  // expected-error @+1 {{coda-generate-backward has no backward for an [M, 1] operand broadcast over columns}}
  %r = coda.mul %x, %s : (tensor<?x16xf32>, tensor<?x1xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}

// -----

// Results are what cotangents are given for: floating-point tensors.
// expected-error @+1 {{@targets returns 'tensor<?xi64>'; coda-generate-backward needs floating-point results}}
func.func @targets(%x: tensor<?x16xf32>, %t: tensor<?xi64>) -> (tensor<?x16xf32>, tensor<?xi64>) {
  %r = coda.relu %x : (tensor<?x16xf32>) -> tensor<?x16xf32>
  return %r, %t : tensor<?x16xf32>, tensor<?xi64>
}

// -----

// The pair's names must be free.
// expected-error @+1 {{coda-generate-backward would add @taken_forward, which the module already has}}
func.func @taken(%x: tensor<?x16xf32>) -> tensor<?x16xf32> {
  %r = coda.relu %x : (tensor<?x16xf32>) -> tensor<?x16xf32>
  return %r : tensor<?x16xf32>
}
func.func private @taken_forward(tensor<?x16xf32>) -> tensor<?x16xf32>

// -----

// Ops of other dialects have no backward.
func.func @foreign(%x: tensor<4x16xf32>) -> tensor<4x16xf32> {
  // expected-error @+1 {{coda-generate-backward takes graph-level functions and has no backward for 'tensor.empty'}}
  %e = tensor.empty() : tensor<4x16xf32>
  %r = coda.add %x, %e : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}
