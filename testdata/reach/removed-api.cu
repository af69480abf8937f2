// cudaThreadSynchronize was removed in CUDA 13: clang only sees an undeclared
// name (a RecoveryExpr, or a typo-corrected call). It is still matched by the
// name as written. Not a check-harness input: harness inputs must compile.
#include <cuda_runtime.h>

void legacyCode(int n) {
  for (int i = 0; i < n; ++i)
    cudaThreadSynchronize();
}
