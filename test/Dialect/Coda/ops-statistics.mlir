// RUN: coda-opt %s --split-input-file | coda-opt --split-input-file | FileCheck %s

// A first-layer RMSNorm's statistics kernel: h = x * gamma and rstd.
// CHECK-LABEL: func.func @rms_statistics
//       CHECK:   %{{.+}}:2 = coda.norm_statistics %{{.+}}, %{{.+}} {epsilon = 9.99999974E-6 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> (tensor<?x64xbf16>, tensor<?x1xf32>)
func.func @rms_statistics(%x: tensor<?x64xbf16>, %g: tensor<64xbf16>) -> (tensor<?x64xbf16>, tensor<?x1xf32>) {
  %h, %r = coda.norm_statistics %x, %g {kind = "rms_norm", epsilon = 1.0e-05 : f32} : (tensor<?x64xbf16>, tensor<64xbf16>) -> (tensor<?x64xbf16>, tensor<?x1xf32>)
  return %h, %r : tensor<?x64xbf16>, tensor<?x1xf32>
}

// -----

// LayerNorm statistics without gamma (folded into the weights): rstd and mean.
// CHECK-LABEL: func.func @layer_statistics
//       CHECK:   %{{.+}}:2 = coda.norm_statistics %{{.+}} {epsilon = 9.99999974E-6 : f32, kind = "layer_norm"} : (tensor<?x64xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>)
func.func @layer_statistics(%x: tensor<?x64xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>) {
  %r, %m = coda.norm_statistics %x {kind = "layer_norm", epsilon = 1.0e-05 : f32} : (tensor<?x64xf32>) -> (tensor<?x1xf32>, tensor<?x1xf32>)
  return %r, %m : tensor<?x1xf32>, tensor<?x1xf32>
}

// -----

// The loss from per-tile log-sum-exps and target logits.
// CHECK-LABEL: func.func @loss_from_partials
//       CHECK:   coda.partial_gather %{{.+}}, %{{.+}} : (tensor<?x256xf32>, tensor<?xi64>) -> tensor<?x?xf32>
//       CHECK:   coda.cross_entropy_from_partials %{{.+}}, %{{.+}}, %{{.+}} {reduction = "sum"} : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xi64>) -> tensor<f32>
func.func @loss_from_partials(%logits: tensor<?x256xf32>, %t: tensor<?xi64>) -> tensor<f32> {
  %lse = coda.partial_reduce %logits {kind = "lse"} : (tensor<?x256xf32>) -> tensor<?x?xf32>
  %picked = coda.partial_gather %logits, %t : (tensor<?x256xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  %loss = coda.cross_entropy_from_partials %lse, %picked, %t {reduction = "sum"} : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?xi64>) -> tensor<f32>
  return %loss : tensor<f32>
}

// -----

// A rank-one update from a per-row column and a per-column vector.
// CHECK-LABEL: func.func @add_outer
//       CHECK:   coda.add_outer %{{.+}}, %{{.+}}, %{{.+}} : (tensor<?x16xf32>, tensor<?x1xf32>, tensor<16xf32>) -> tensor<?x16xf32>
func.func @add_outer(%a: tensor<?x16xf32>, %u: tensor<?x1xf32>, %v: tensor<16xf32>) -> tensor<?x16xf32> {
  %y = coda.add_outer %a, %u, %v : (tensor<?x16xf32>, tensor<?x1xf32>, tensor<16xf32>) -> tensor<?x16xf32>
  return %y : tensor<?x16xf32>
}

// -----

// A row scale and a column scale: an RMSNorm from its saved row scales.
// CHECK-LABEL: func.func @mul_outer
//       CHECK:   coda.mul_outer %{{.+}}, %{{.+}}, %{{.+}} : (tensor<?x16xbf16>, tensor<?x1xf32>, tensor<16xbf16>) -> tensor<?x16xbf16>
//       CHECK:   coda.mul_outer %{{.+}}, %{{.+}}, %{{.+}} : (tensor<?x16xf32>, tensor<?x1xf32>, tensor<16xf32>) -> tensor<?x16xf32>
func.func @mul_outer(%x: tensor<?x16xbf16>, %r: tensor<?x1xf32>, %g: tensor<16xbf16>, %y: tensor<?x16xf32>, %c: tensor<16xf32>) -> (tensor<?x16xbf16>, tensor<?x16xf32>) {
  %h = coda.mul_outer %x, %r, %g : (tensor<?x16xbf16>, tensor<?x1xf32>, tensor<16xbf16>) -> tensor<?x16xbf16>
  %z = coda.mul_outer %y, %r, %c : (tensor<?x16xf32>, tensor<?x1xf32>, tensor<16xf32>) -> tensor<?x16xf32>
  return %h, %z : tensor<?x16xbf16>, tensor<?x16xf32>
}
