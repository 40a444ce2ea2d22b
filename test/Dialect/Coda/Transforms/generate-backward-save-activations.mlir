// RUN: coda-opt %s --coda-generate-backward | FileCheck %s --check-prefix=RECOMPUTE
// RUN: coda-opt %s --coda-generate-backward="save-activations" | FileCheck %s --check-prefix=SAVE

// A SwiGLU MLP. By default the forward saves gate and up and the backward
// recomputes the SwiGLU output for the down projection's weight gradient;
// with save-activations the forward also returns that output, and the
// backward reads it.
// RECOMPUTE-LABEL: func.func @mlp_forward(
//  RECOMPUTE-SAME:     -> (tensor<?x64xbf16>, tensor<?x128xbf16>, tensor<?x128xbf16>) attributes {coda.saved = 2 : i64}
// RECOMPUTE-LABEL: func.func @mlp_backward(
//       RECOMPUTE:   %[[A:.+]] = coda.swiglu %{{.+}}, %{{.+}} : (tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16>
//       RECOMPUTE:   coda.transposed_matmul %{{.+}}, %[[A]]
// SAVE-LABEL: func.func @mlp_forward(
//  SAVE-SAME:     -> (tensor<?x64xbf16>, tensor<?x128xbf16>, tensor<?x128xbf16>, tensor<?x128xbf16>) attributes {coda.saved = 3 : i64}
//       SAVE:   %[[ACT:.+]] = coda.swiglu
//       SAVE:   return %{{.+}}, %{{.+}}, %{{.+}}, %[[ACT]]
// SAVE-LABEL: func.func @mlp_backward(
//  SAVE-SAME:     %[[SAVED:[^:]+]]: tensor<?x128xbf16>, %{{[^:]+}}: tensor<?x64xbf16>)
//   SAVE-NOT:   coda.swiglu %{{.+}}, %{{.+}} : (tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16>
//       SAVE:   coda.transposed_matmul %{{.+}}, %[[SAVED]]
func.func @mlp(%x: tensor<?x64xbf16>, %wg: tensor<128x64xbf16>, %wu: tensor<128x64xbf16>, %wd: tensor<64x128xbf16>) -> tensor<?x64xbf16> {
  %gate = coda.linear %x, %wg : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16>
  %up = coda.linear %x, %wu : (tensor<?x64xbf16>, tensor<128x64xbf16>) -> tensor<?x128xbf16>
  %act = coda.swiglu %gate, %up : (tensor<?x128xbf16>, tensor<?x128xbf16>) -> tensor<?x128xbf16>
  %y = coda.linear %act, %wd : (tensor<?x128xbf16>, tensor<64x128xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}
