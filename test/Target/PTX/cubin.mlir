// REQUIRES: ptxas
// --coda-to-cubin assembles the kernels with ptxas from CUDA_ROOT into an
// ELF cubin; without ptxas it says where it looked.
//
// RUN: coda-translate --coda-to-cubin %s -o %t.cubin
// RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(); print('elf' if d[:4] == b'\x7fELF' else 'not elf', len(d) > 1000)" %t.cubin | FileCheck %s
// RUN: env CUDA_ROOT=%t.missing not coda-translate --coda-to-cubin %s -o %t.none 2>&1 | FileCheck %s --check-prefix=MISSING

// CHECK: elf True
// MISSING: error: cannot find ptxas at '{{.*}}.missing/bin/ptxas': set CUDA_ROOT to the CUDA toolkit

func.func @plain(%x: tensor<?x256xbf16>, %w: tensor<128x256xbf16>) -> tensor<?x128xbf16> {
  %y = coda.linear %x, %w : (tensor<?x256xbf16>, tensor<128x256xbf16>) -> tensor<?x128xbf16>
  return %y : tensor<?x128xbf16>
}
