// cudaThreadSynchronize was removed in CUDA 13: clang only sees an
// undeclared name (a RecoveryExpr); it is still matched by name.
// ENV: real
#include <cuda_runtime.h>

void legacyCode(int n) {
  for (int i = 0; i < n; ++i)
    cudaThreadSynchronize(); // CHECK: device-sync {{inside the loop at line 7}}
}
