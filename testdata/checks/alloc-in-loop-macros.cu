// alloc-in-loop: allocations wrapped in `do { ... } while (0)` check macros
// are not in a loop unless a real loop surrounds the macro.
#include <cstdio>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t status_ = (call);                                             \
    if (status_ != cudaSuccess)                                               \
      printf("%s\n", cudaGetErrorString(status_));                           \
  } while (0)

void setup(float **d, size_t n) {
  CUDA_CHECK(cudaMalloc(d, n * sizeof(float)));
  CUDA_CHECK(cudaFree(*d));
  do {
    float *scratch = nullptr;
    cudaMalloc(&scratch, n);
    cudaFree(scratch);
  } while (0);
}

void train(size_t n, int steps) {
  for (int i = 0; i < steps; ++i) {
    float *scratch = nullptr;
    CUDA_CHECK(cudaMalloc(&scratch, n)); // CHECK: alloc-in-loop {{inside the loop at line 24}}
    CUDA_CHECK(cudaFree(scratch)); // CHECK: alloc-in-loop {{inside the loop at line 24}}
  }
}
