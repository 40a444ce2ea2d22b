// RUN: coda-opt %s --split-input-file --verify-diagnostics

// gemm_c1: at least one weight.
func.func @gemm_no_weights(%a: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op needs at least one weight}}
  %y = coda.gemm %a, [] : (tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x0xf32>):
    coda.yield %acc : tensor<2x0xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c1: K must agree between a and every weight.
func.func @gemm_k_mismatch(%a: tensor<2x16xbf16>, %w: tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op contraction size mismatch: a has K = 16 but weight #0 has K = 8}}
  %y = coda.gemm %a, [%w] : (tensor<2x16xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c1: K must agree between a and every weight; the diagnostic names the weight.
func.func @gemm_k_mismatch_second_weight(%a: tensor<2x8xbf16>, %w0: tensor<8x8xbf16>, %w1: tensor<8x16xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.gemm' op contraction size mismatch: a has K = 8 but weight #1 has K = 16}}
  %y = coda.gemm %a, [%w0, %w1] : (tensor<2x8xbf16>, tensor<8x8xbf16>, tensor<8x16xbf16>) -> tensor<2x16xbf16> {
  ^bb0(%acc: tensor<2x16xf32>):
    coda.yield %acc : tensor<2x16xf32>
  }
  return %y : tensor<2x16xbf16>
}

// -----

// gemm_c1: K must agree between a and every weight; a_layout = "km" reads K from dim 0 of a.
func.func @gemm_k_mismatch_km(%a: tensor<16x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<8x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op contraction size mismatch: a has K = 16 but weight #0 has K = 8}}
  %y = coda.gemm %a, [%w] {a_layout = "km"} : (tensor<16x8xbf16>, tensor<8x8xbf16>) -> tensor<8x8xbf16> {
  ^bb0(%acc: tensor<8x8xf32>):
    coda.yield %acc : tensor<8x8xf32>
  }
  return %y : tensor<8x8xbf16>
}

// -----

// gemm_c1: K must agree between a and every weight; b_layout = "kn" reads K from dim 0 of the weight.
func.func @gemm_k_mismatch_kn(%a: tensor<2x16xbf16>, %w: tensor<8x16xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.gemm' op contraction size mismatch: a has K = 16 but weight #0 has K = 8}}
  %y = coda.gemm %a, [%w] {b_layout = "kn"} : (tensor<2x16xbf16>, tensor<8x16xbf16>) -> tensor<2x16xbf16> {
  ^bb0(%acc: tensor<2x16xf32>):
    coda.yield %acc : tensor<2x16xf32>
  }
  return %y : tensor<2x16xbf16>
}

// -----

// gemm_c1: K must agree between a and every weight, with both transposed layouts.
func.func @gemm_k_mismatch_km_kn(%a: tensor<16x8xbf16>, %w: tensor<8x16xbf16>) -> tensor<8x16xbf16> {
  // expected-error @+1 {{'coda.gemm' op contraction size mismatch: a has K = 16 but weight #0 has K = 8}}
  %y = coda.gemm %a, [%w] {a_layout = "km", b_layout = "kn"} : (tensor<16x8xbf16>, tensor<8x16xbf16>) -> tensor<8x16xbf16> {
  ^bb0(%acc: tensor<8x16xf32>):
    coda.yield %acc : tensor<8x16xf32>
  }
  return %y : tensor<8x16xbf16>
}

// -----

// gemm_c1: every weight has the element type of a.
func.func @gemm_weight_element_type(%a: tensor<2x8xbf16>, %w: tensor<8x8xf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op weight #0 has element type 'f16' but a has 'bf16'}}
  %y = coda.gemm %a, [%w] : (tensor<2x8xbf16>, tensor<8x8xf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c1: weights have static shapes; here N (dim 0 in "nk") is dynamic.
func.func @gemm_weight_dynamic_columns(%a: tensor<2x8xbf16>, %w: tensor<?x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op weight #0 has a dynamic number of columns}}
  %y = coda.gemm %a, [%w] : (tensor<2x8xbf16>, tensor<?x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x?xf32>):
    coda.yield %acc : tensor<2x?xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c1: weights have static shapes; here N (dim 1 in "kn") is dynamic.
func.func @gemm_weight_dynamic_columns_kn(%a: tensor<2x8xbf16>, %w: tensor<8x?xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op weight #0 has a dynamic number of columns}}
  %y = coda.gemm %a, [%w] {b_layout = "kn"} : (tensor<2x8xbf16>, tensor<8x?xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x?xf32>):
    coda.yield %acc : tensor<2x?xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c5: the contiguous dimension of a weight (K in "nk") must be static for TMA.
func.func @gemm_weight_dynamic_contiguous(%a: tensor<2x8xbf16>, %w: tensor<8x?xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op weight #0 has a dynamic contiguous dimension; TMA needs a static row stride}}
  %y = coda.gemm %a, [%w] : (tensor<2x8xbf16>, tensor<8x?xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c5: the contiguous dimension of a (K in "mk") must be static for TMA.
func.func @gemm_a_dynamic_contiguous(%a: tensor<2x?xbf16>, %w: tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op a has a dynamic contiguous dimension; TMA needs a static row stride}}
  %y = coda.gemm %a, [%w] : (tensor<2x?xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c5: the contiguous dimension of a (M in "km") must be static for TMA.
func.func @gemm_a_dynamic_contiguous_km(%a: tensor<8x?xbf16>, %w: tensor<8x8xbf16>) -> tensor<?x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op a has a dynamic contiguous dimension; TMA needs a static row stride}}
  %y = coda.gemm %a, [%w] {a_layout = "km"} : (tensor<8x?xbf16>, tensor<8x8xbf16>) -> tensor<?x8xbf16> {
  ^bb0(%acc: tensor<?x8xf32>):
    coda.yield %acc : tensor<?x8xf32>
  }
  return %y : tensor<?x8xbf16>
}

// -----

// gemm_c5: rows of a must be a multiple of 16 bytes (K = 12 in bf16 is 24 bytes).
func.func @gemm_tma_a_bf16(%a: tensor<2x12xbf16>, %w: tensor<12x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op a contiguous size = 12 gives rows of 24 bytes in 'bf16'; TMA needs a multiple of 16 bytes (a contiguous size a multiple of 8)}}
  %y = coda.gemm %a, [%w] {b_layout = "kn"} : (tensor<2x12xbf16>, tensor<12x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c5: rows of a must be a multiple of 16 bytes; in "km" the contiguous dimension is M.
func.func @gemm_tma_a_km_f32(%a: tensor<4x6xf32>, %w: tensor<4x4xf32>) -> tensor<6x4xf32> {
  // expected-error @+1 {{'coda.gemm' op a contiguous size = 6 gives rows of 24 bytes in 'f32'; TMA needs a multiple of 16 bytes (a contiguous size a multiple of 4)}}
  %y = coda.gemm %a, [%w] {a_layout = "km"} : (tensor<4x6xf32>, tensor<4x4xf32>) -> tensor<6x4xf32> {
  ^bb0(%acc: tensor<6x4xf32>):
    coda.yield %acc : tensor<6x4xf32>
  }
  return %y : tensor<6x4xf32>
}

// -----

// gemm_c5: rows of a weight must be a multiple of 16 bytes (K = 12 in bf16 is 24 bytes).
func.func @gemm_tma_weight_bf16(%a: tensor<2x12xbf16>, %w: tensor<8x12xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op weight #0 contiguous size = 12 gives rows of 24 bytes in 'bf16'; TMA needs a multiple of 16 bytes (weight #0 contiguous size a multiple of 8)}}
  %y = coda.gemm %a, [%w] : (tensor<2x12xbf16>, tensor<8x12xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c5: rows of a weight must be a multiple of 16 bytes; in "kn" the contiguous dimension is N.
func.func @gemm_tma_weight_kn_f16(%a: tensor<2x8xf16>, %w: tensor<8x4xf16>) -> tensor<2x4xf16> {
  // expected-error @+1 {{'coda.gemm' op weight #0 contiguous size = 4 gives rows of 8 bytes in 'f16'; TMA needs a multiple of 16 bytes (weight #0 contiguous size a multiple of 8)}}
  %y = coda.gemm %a, [%w] {b_layout = "kn"} : (tensor<2x8xf16>, tensor<8x4xf16>) -> tensor<2x4xf16> {
  ^bb0(%acc: tensor<2x4xf32>):
    coda.yield %acc : tensor<2x4xf32>
  }
  return %y : tensor<2x4xf16>
}

// -----

// gemm_c5: rows of a weight must be a multiple of 16 bytes; f32 needs K a multiple of 4.
func.func @gemm_tma_weight_f32(%a: tensor<2x2xf32>, %w: tensor<4x2xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'coda.gemm' op weight #0 contiguous size = 2 gives rows of 8 bytes in 'f32'; TMA needs a multiple of 16 bytes (weight #0 contiguous size a multiple of 4)}}
  %y = coda.gemm %a, [%w] : (tensor<2x2xf32>, tensor<4x2xf32>) -> tensor<2x4xf32> {
  ^bb0(%acc: tensor<2x4xf32>):
    coda.yield %acc : tensor<2x4xf32>
  }
  return %y : tensor<2x4xf32>
}

// -----

// gemm_c3: every result has floating-point elements (the yield is rounded to them).
func.func @gemm_integer_result(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>) -> (tensor<2x8xbf16>, tensor<2x8xi32>) {
  // expected-error @+1 {{'coda.gemm' op result #1 must be variadic of 1D/2D tensor of bfloat16 type or 16-bit float or 32-bit float values, but got 'tensor<2x8xi32>'}}
  %y, %z = coda.gemm %a, [%w] : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> (tensor<2x8xbf16>, tensor<2x8xi32>) {
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc, %acc : tensor<2x8xf32>, tensor<2x8xf32>
  }
  return %y, %z : tensor<2x8xbf16>, tensor<2x8xi32>
}

// -----

// gemm_c2: one block argument for the accumulator and one per input.
func.func @gemm_missing_input_argument(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>, %r: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op epilogue has 1 arguments but expected 2 (the accumulator and one per input)}}
  %y = coda.gemm %a, [%w] inputs(%r) : (tensor<2x8xbf16>, tensor<8x8xbf16>, tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c2: one block argument for the accumulator and one per input; an extra one is rejected.
func.func @gemm_extra_argument(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op epilogue has 2 arguments but expected 1 (the accumulator and one per input)}}
  %y = coda.gemm %a, [%w] : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>, %extra: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c2: the accumulator argument is required.
func.func @gemm_no_arguments(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>) {
  // expected-error @+1 {{'coda.gemm' op epilogue has 0 arguments but expected 1 (the accumulator and one per input)}}
  coda.gemm %a, [%w] : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> () {
    coda.yield
  }
  return
}

// -----

// gemm_c2: the accumulator is tensor<M x N x f32> with N the sum of the weights' rows.
func.func @gemm_accumulator_n(%a: tensor<2x8xbf16>, %w0: tensor<8x8xbf16>, %w1: tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op epilogue accumulator has type 'tensor<2x8xf32>' but expected 'tensor<2x16xf32>'}}
  %y = coda.gemm %a, [%w0, %w1] : (tensor<2x8xbf16>, tensor<8x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c2: the accumulator has f32 elements, whatever the element type of a.
func.func @gemm_accumulator_bf16(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op epilogue accumulator has type 'tensor<2x8xbf16>' but expected 'tensor<2x8xf32>'}}
  %y = coda.gemm %a, [%w] : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xbf16>):
    coda.yield %acc : tensor<2x8xbf16>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c2: the accumulator has the M rows of a.
func.func @gemm_accumulator_rows(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op epilogue accumulator has type 'tensor<4x8xf32>' but expected 'tensor<2x8xf32>'}}
  %y = coda.gemm %a, [%w] : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<4x8xf32>):
    coda.yield %acc : tensor<4x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c2: a dynamic M stays dynamic in the accumulator type.
func.func @gemm_accumulator_rows_dynamic(%a: tensor<?x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<?x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op epilogue accumulator has type 'tensor<2x8xf32>' but expected 'tensor<?x8xf32>'}}
  %y = coda.gemm %a, [%w] : (tensor<?x8xbf16>, tensor<8x8xbf16>) -> tensor<?x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<?x8xbf16>
}

// -----

// gemm_c2: with a_layout = "km" and b_layout = "kn" the accumulator is [dim(a, 1), dim(b, 1)].
func.func @gemm_accumulator_km_kn(%a: tensor<8x16xbf16>, %w: tensor<8x24xbf16>) -> tensor<16x24xbf16> {
  // expected-error @+1 {{'coda.gemm' op epilogue accumulator has type 'tensor<8x8xf32>' but expected 'tensor<16x24xf32>'}}
  %y = coda.gemm %a, [%w] {a_layout = "km", b_layout = "kn"} : (tensor<8x16xbf16>, tensor<8x24xbf16>) -> tensor<16x24xbf16> {
  ^bb0(%acc: tensor<8x8xf32>):
    coda.yield %acc : tensor<8x8xf32>
  }
  return %y : tensor<16x24xbf16>
}

// -----

// gemm_c2: a floating-point input is widened to f32 in the region.
func.func @gemm_input_not_widened(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>, %r: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op epilogue argument for input #0 has type 'tensor<2x8xbf16>' but expected 'tensor<2x8xf32>'}}
  %y = coda.gemm %a, [%w] inputs(%r) : (tensor<2x8xbf16>, tensor<8x8xbf16>, tensor<2x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>, %res: tensor<2x8xbf16>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c2: an integer input keeps its own type in the region.
func.func @gemm_integer_input_changed(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>, %b: tensor<8xbf16>, %t: tensor<2xi64>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op epilogue argument for input #1 has type 'tensor<2xf32>' but expected 'tensor<2xi64>'}}
  %y = coda.gemm %a, [%w] inputs(%b, %t) : (tensor<2x8xbf16>, tensor<8x8xbf16>, tensor<8xbf16>, tensor<2xi64>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>, %bias: tensor<8xf32>, %targets: tensor<2xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c4: coda.rms_norm needs whole rows and is not tile-local.
func.func @gemm_epilogue_rms_norm(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>, %g: tensor<8xbf16>) -> tensor<2x8xbf16> {
  %y = coda.gemm %a, [%w] inputs(%g) : (tensor<2x8xbf16>, tensor<8x8xbf16>, tensor<8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>, %gamma: tensor<8xf32>):
    // expected-error @+1 {{'coda.rms_norm' op is not tile-local and cannot run in a GEMM epilogue}}
    %n = coda.rms_norm %acc, %gamma {epsilon = 1.0e-05 : f32} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    coda.yield %n : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c4: coda.linear is a GEMM of its own and is not tile-local.
func.func @gemm_epilogue_linear(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>, %w2: tensor<8x8xf32>) -> tensor<2x8xbf16> {
  %y = coda.gemm %a, [%w] inputs(%w2) : (tensor<2x8xbf16>, tensor<8x8xbf16>, tensor<8x8xf32>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>, %v: tensor<8x8xf32>):
    // expected-error @+1 {{'coda.linear' op is not tile-local and cannot run in a GEMM epilogue}}
    %l = coda.linear %acc, %v : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
    coda.yield %l : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c4: coda.cross_entropy needs whole rows and is not tile-local.
func.func @gemm_epilogue_cross_entropy(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>, %t: tensor<2xi64>) -> tensor<2x8xbf16> {
  %y = coda.gemm %a, [%w] inputs(%t) : (tensor<2x8xbf16>, tensor<8x8xbf16>, tensor<2xi64>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>, %targets: tensor<2xi64>):
    // expected-error @+1 {{'coda.cross_entropy' op is not tile-local and cannot run in a GEMM epilogue}}
    %l = coda.cross_entropy %acc, %targets {reduction = "none"} : (tensor<2x8xf32>, tensor<2xi64>) -> tensor<2xf32>
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c4: coda.reduce_partials combines partials across tiles and is not tile-local.
func.func @gemm_epilogue_reduce_partials(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<2x?xf32> {
  %y = coda.gemm %a, [%w] : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x?xf32> {
  ^bb0(%acc: tensor<2x8xf32>):
    %p = coda.partial_reduce %acc {kind = "sum"} : (tensor<2x8xf32>) -> tensor<2x?xf32>
    // expected-error @+1 {{'coda.reduce_partials' op is not tile-local and cannot run in a GEMM epilogue}}
    %s = coda.reduce_partials %p {kind = "sum"} : (tensor<2x?xf32>) -> tensor<2x1xf32>
    coda.yield %p : tensor<2x?xf32>
  }
  return %y : tensor<2x?xf32>
}

// -----

// gemm_c3: the epilogue ends in coda.yield; func.return there fails its own HasParent check first.
func.func @gemm_epilogue_func_return(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  %y = coda.gemm %a, [%w] : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    // expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
    func.return %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c3: the epilogue ends in coda.yield; without any terminator MLIR's block check fires first.
func.func @gemm_epilogue_no_terminator(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  %y = coda.gemm %a, [%w] : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    // expected-error @+1 {{block with no terminator, has %1 = "coda.relu"(%arg0) : (tensor<2x8xf32>) -> tensor<2x8xf32>}}
    %s = coda.relu %acc : (tensor<2x8xf32>) -> tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c3: coda.yield yields one value per result.
func.func @gemm_yield_count(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  %y = coda.gemm %a, [%w] : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    // expected-error @+1 {{'coda.yield' op yields 2 values but the GEMM has 1 results}}
    coda.yield %acc, %acc : tensor<2x8xf32>, tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c3: each yielded value has the shape of its result (here the columns differ).
func.func @gemm_yield_columns(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<2x16xbf16> {
  %y = coda.gemm %a, [%w] : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x16xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    // expected-error @+1 {{'coda.yield' op value #0 has type 'tensor<2x8xf32>' but result #0 of type 'tensor<2x16xbf16>' needs a value of its shape with f32 elements}}
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x16xbf16>
}

// -----

// gemm_c3: each yielded value has the shape of its result (here the static rows differ).
func.func @gemm_yield_rows(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<4x8xbf16> {
  %y = coda.gemm %a, [%w] : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<4x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    // expected-error @+1 {{'coda.yield' op value #0 has type 'tensor<2x8xf32>' but result #0 of type 'tensor<4x8xbf16>' needs a value of its shape with f32 elements}}
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<4x8xbf16>
}

// -----

// gemm_c3: each yielded value has the shape of its result (here the ranks differ).
func.func @gemm_yield_rank(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<16xbf16> {
  %y = coda.gemm %a, [%w] : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<16xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    // expected-error @+1 {{'coda.yield' op value #0 has type 'tensor<2x8xf32>' but result #0 of type 'tensor<16xbf16>' needs a value of its shape with f32 elements}}
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<16xbf16>
}

// -----

// gemm_c3: each yielded value has f32 elements; an integer input passed through is rejected.
func.func @gemm_yield_element_type(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>, %i: tensor<2x8xi32>) -> (tensor<2x8xbf16>, tensor<2x8xbf16>) {
  %y, %z = coda.gemm %a, [%w] inputs(%i) : (tensor<2x8xbf16>, tensor<8x8xbf16>, tensor<2x8xi32>) -> (tensor<2x8xbf16>, tensor<2x8xbf16>) {
  ^bb0(%acc: tensor<2x8xf32>, %ints: tensor<2x8xi32>):
    // expected-error @+1 {{'coda.yield' op value #1 has type 'tensor<2x8xi32>' but result #1 of type 'tensor<2x8xbf16>' needs a value of its shape with f32 elements}}
    coda.yield %acc, %ints : tensor<2x8xf32>, tensor<2x8xi32>
  }
  return %y, %z : tensor<2x8xbf16>, tensor<2x8xbf16>
}

// -----

// HasParent<"GemmOp">: coda.yield ends only a GEMM epilogue.
func.func @yield_outside_gemm() {
  // expected-error @+1 {{'coda.yield' op expects parent op to be one of 'coda.gemm, coda.map'}}
  coda.yield
}

// -----

// a_layout is "mk" or "km".
func.func @gemm_bad_a_layout(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{custom op 'coda.gemm' 'coda.gemm' op attribute 'a_layout' failed to satisfy constraint: string attribute one of "mk", "km"}}
  %y = coda.gemm %a, [%w] {a_layout = "mn"} : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// b_layout is "nk" or "kn".
func.func @gemm_bad_b_layout(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{custom op 'coda.gemm' 'coda.gemm' op attribute 'b_layout' failed to satisfy constraint: string attribute one of "nk", "kn"}}
  %y = coda.gemm %a, [%w] {b_layout = "NK"} : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// IsolatedFromAbove: the epilogue sees outside values only through inputs(...).
func.func @gemm_implicit_capture(%a: tensor<2x8xbf16>, %w: tensor<8x8xbf16>, %r: tensor<2x8xf32>) -> tensor<2x8xbf16> {
  // expected-note @+1 {{required by region isolation constraints}}
  %y = coda.gemm %a, [%w] : (tensor<2x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    // expected-error @+1 {{'coda.add' op using value defined outside the region}}
    %s = coda.add %acc, %r : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
    coda.yield %s : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c6: one accumulate entry per result.
func.func @accumulate_size(%a: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %d: tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  // expected-error @+1 {{'coda.gemm' op accumulate has 2 entries but the GEMM has 1 results}}
  %y = coda.gemm %a, [%w] inputs(%d) {accumulate = array<i64: 0, 0>} : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>, %old: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %y : tensor<?x32xbf16>
}

// -----

// gemm_c6: an entry names an input.
func.func @accumulate_index(%a: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %d: tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  // expected-error @+1 {{'coda.gemm' op accumulate entry #0 is 1, not -1 or one of the 1 inputs}}
  %y = coda.gemm %a, [%w] inputs(%d) {accumulate = array<i64: 1>} : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<?x32xbf16>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>, %old: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %y : tensor<?x32xbf16>
}

// -----

// gemm_c6: the input has the result's type.
func.func @accumulate_type(%a: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %d: tensor<?x32xf32>) -> tensor<?x32xbf16> {
  // expected-error @+1 {{'coda.gemm' op result #0 of type 'tensor<?x32xbf16>' cannot accumulate into input #0 of type 'tensor<?x32xf32>'}}
  %y = coda.gemm %a, [%w] inputs(%d) {accumulate = array<i64: 0>} : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<?x32xf32>) -> tensor<?x32xbf16> {
  ^bb0(%acc: tensor<?x32xf32>, %old: tensor<?x32xf32>):
    coda.yield %acc : tensor<?x32xf32>
  }
  return %y : tensor<?x32xbf16>
}

// -----

// gemm_c6: an input takes at most one result.
func.func @accumulate_twice(%a: tensor<?x64xbf16>, %w: tensor<32x64xbf16>, %d: tensor<?x32xbf16>) -> (tensor<?x32xbf16>, tensor<?x32xbf16>) {
  // expected-error @+1 {{'coda.gemm' op input #0 takes two results}}
  %y, %z = coda.gemm %a, [%w] inputs(%d) {accumulate = array<i64: 0, 0>} : (tensor<?x64xbf16>, tensor<32x64xbf16>, tensor<?x32xbf16>) -> (tensor<?x32xbf16>, tensor<?x32xbf16>) {
  ^bb0(%acc: tensor<?x32xf32>, %old: tensor<?x32xf32>):
    coda.yield %acc, %acc : tensor<?x32xf32>, tensor<?x32xf32>
  }
  return %y, %z : tensor<?x32xbf16>, tensor<?x32xbf16>
}

// -----

// map_c1: one region argument per input.
func.func @map_arguments(%a: tensor<?x8xbf16>) -> tensor<?x8xbf16> {
  // expected-error @+1 {{'coda.map' op region has 2 arguments but expected 1 (one per input)}}
  %y = coda.map inputs(%a) : (tensor<?x8xbf16>) -> tensor<?x8xbf16> {
  ^bb0(%x: tensor<?x8xf32>, %z: tensor<?x8xf32>):
    coda.yield %x : tensor<?x8xf32>
  }
  return %y : tensor<?x8xbf16>
}

// -----

// map_c1: inputs are widened to f32 in the region.
func.func @map_argument_type(%a: tensor<?x8xbf16>) -> tensor<?x8xbf16> {
  // expected-error @+1 {{'coda.map' op region argument for input #0 has type 'tensor<?x8xbf16>' but expected 'tensor<?x8xf32>'}}
  %y = coda.map inputs(%a) : (tensor<?x8xbf16>) -> tensor<?x8xbf16> {
  ^bb0(%x: tensor<?x8xbf16>):
    coda.yield %x : tensor<?x8xbf16>
  }
  return %y : tensor<?x8xbf16>
}

// -----

// map_c2: the yielded value has the result's shape in f32.
func.func @map_yield(%a: tensor<?x8xbf16>) -> tensor<?x4xbf16> {
  %y = coda.map inputs(%a) : (tensor<?x8xbf16>) -> tensor<?x4xbf16> {
  ^bb0(%x: tensor<?x8xf32>):
    // expected-error @+1 {{'coda.yield' op a map yields one value of type 'tensor<?x4xf32>', got 'tensor<?x8xf32>'}}
    coda.yield %x : tensor<?x8xf32>
  }
  return %y : tensor<?x4xbf16>
}

// -----

// map_c2: a map with row_sum gives one f32 value per row.
func.func @map_row_sum_result(%a: tensor<?x8xbf16>) -> tensor<?x8xf32> {
  // expected-error @+1 {{'coda.map' op with row_sum gives one f32 value per row, tensor<Mx1xf32>, not 'tensor<?x8xf32>'}}
  %y = coda.map inputs(%a) {row_sum} : (tensor<?x8xbf16>) -> tensor<?x8xf32> {
  ^bb0(%x: tensor<?x8xf32>):
    coda.yield %x : tensor<?x8xf32>
  }
  return %y : tensor<?x8xf32>
}

// -----

// map_c2: what a map with row_sum sums has the result's rows.
func.func @map_row_sum_rows(%a: tensor<4x8xbf16>) -> tensor<5x1xf32> {
  %y = coda.map inputs(%a) {row_sum} : (tensor<4x8xbf16>) -> tensor<5x1xf32> {
  ^bb0(%x: tensor<4x8xf32>):
    // expected-error @+1 {{'coda.yield' op a map with row_sum yields one f32 matrix of the result's rows, got 'tensor<4x8xf32>'}}
    coda.yield %x : tensor<4x8xf32>
  }
  return %y : tensor<5x1xf32>
}

// -----

// map_c3: only tile-local ops.
func.func @map_not_tile_local(%a: tensor<?x8xbf16>, %g: tensor<8xf32>) -> tensor<?x8xbf16> {
  %y = coda.map inputs(%a, %g) : (tensor<?x8xbf16>, tensor<8xf32>) -> tensor<?x8xbf16> {
  ^bb0(%x: tensor<?x8xf32>, %w: tensor<8xf32>):
    // expected-error @+1 {{'coda.rms_norm' op is not tile-local and cannot run in a map}}
    %n = coda.rms_norm %x, %w {epsilon = 1.0e-05 : f32} : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
    coda.yield %n : tensor<?x8xf32>
  }
  return %y : tensor<?x8xbf16>
}

// -----

// gemm_c7: the weights divide evenly among the products.
func.func @gemm_products_uneven_weights(%a0: tensor<2x8xbf16>, %a1: tensor<2x8xbf16>, %w0: tensor<8x8xbf16>, %w1: tensor<8x8xbf16>, %w2: tensor<8x8xbf16>) -> tensor<2x16xbf16> {
  // expected-error @+1 {{'coda.gemm' op has 3 weights for 2 products; every product needs as many weights as the first}}
  %y = coda.gemm %a0, [%w0, %w1] + %a1, [%w2] : (tensor<2x8xbf16>, tensor<2x8xbf16>, tensor<8x8xbf16>, tensor<8x8xbf16>, tensor<8x8xbf16>) -> tensor<2x16xbf16> {
  ^bb0(%acc: tensor<2x16xf32>):
    coda.yield %acc : tensor<2x16xf32>
  }
  return %y : tensor<2x16xbf16>
}

// -----

// gemm_c7: every product has the first one's rows.
func.func @gemm_products_rows_mismatch(%a0: tensor<2x8xbf16>, %a1: tensor<4x8xbf16>, %w0: tensor<8x8xbf16>, %w1: tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op product #1's a has M = 4 but the first product has M = 2}}
  %y = coda.gemm %a0, [%w0] + %a1, [%w1] : (tensor<2x8xbf16>, tensor<4x8xbf16>, tensor<8x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c7: every product has the first one's element type.
func.func @gemm_products_element_mismatch(%a0: tensor<2x8xbf16>, %a1: tensor<2x8xf16>, %w0: tensor<8x8xbf16>, %w1: tensor<8x8xf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op product #1's a has element type 'f16' but the first product's a has 'bf16'}}
  %y = coda.gemm %a0, [%w0] + %a1, [%w1] : (tensor<2x8xbf16>, tensor<2x8xf16>, tensor<8x8xbf16>, tensor<8x8xf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c1: each product's weights agree with its own a on K.
func.func @gemm_products_k_mismatch(%a0: tensor<2x8xbf16>, %a1: tensor<2x16xbf16>, %w0: tensor<8x8xbf16>, %w1: tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op contraction size mismatch: product #1's a has K = 16 but weight #1 has K = 8}}
  %y = coda.gemm %a0, [%w0] + %a1, [%w1] : (tensor<2x8xbf16>, tensor<2x16xbf16>, tensor<8x8xbf16>, tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// gemm_c7: every product's weights have the first product's columns.
func.func @gemm_products_columns_mismatch(%a0: tensor<2x8xbf16>, %a1: tensor<2x8xbf16>, %w0: tensor<8x8xbf16>, %w1: tensor<16x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op weight #1 has 16 columns but weight #0 of the first product has 8}}
  %y = coda.gemm %a0, [%w0] + %a1, [%w1] : (tensor<2x8xbf16>, tensor<2x8xbf16>, tensor<8x8xbf16>, tensor<16x8xbf16>) -> tensor<2x8xbf16> {
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }
  return %y : tensor<2x8xbf16>
}

// -----

// A GEMM sums at least one product (the generic form can write none).
func.func @gemm_no_products(%w: tensor<8x8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'coda.gemm' op needs at least one product}}
  %y = "coda.gemm"(%w) <{operandSegmentSizes = array<i32: 0, 1, 0>}> ({
  ^bb0(%acc: tensor<2x8xf32>):
    coda.yield %acc : tensor<2x8xf32>
  }) : (tensor<8x8xbf16>) -> tensor<2x8xbf16>
  return %y : tensor<2x8xbf16>
}

// -----

// An epilogue ends in coda.yield (the generic form can end it otherwise).
func.func @gemm_other_terminator(%a: tensor<?x64xbf16>, %b: tensor<32x64xbf16>) -> tensor<?x32xbf16> {
  // expected-error @+1 {{'coda.gemm' op epilogue must end in coda.yield}}
  %y = "coda.gemm"(%a, %b) <{operandSegmentSizes = array<i32: 1, 1, 0>}> ({
  ^bb0(%acc: tensor<?x32xf32>):
    llvm.unreachable
  }) : (tensor<?x64xbf16>, tensor<32x64xbf16>) -> tensor<?x32xbf16>
  return %y : tensor<?x32xbf16>
}

// -----

// So does a map's region.
func.func @map_other_terminator(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  // expected-error @+1 {{'coda.map' op region must end in coda.yield}}
  %y = "coda.map"(%x) ({
  ^bb0(%a: tensor<?x64xf32>):
    llvm.unreachable
  }) : (tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
