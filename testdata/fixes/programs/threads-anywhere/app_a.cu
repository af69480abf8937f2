// Program A of two in one compile database (app_b.cu is B's main). The
// threads of starter.cu start from functions that only B's main calls,
// but one of them is also called by a global's initializer, which runs in
// every program that links starter.cu: A may hold it, so A's moves to the
// per-thread stream stay suggestions.
#include <cuda_runtime.h>

void stepA(float *d, float *h, int n);

int main() {
  float *d, h[64];
  cudaMalloc(&d, 256);
  cudaStream_t s;
  cudaStreamCreate(&s);
  for (int i = 0; i < 10; ++i)
    stepA(d, h, 256);
  cudaStreamDestroy(s);
  cudaFree(d);
  return 0;
}

__global__ void twice(float *d) { d[threadIdx.x] *= 2.0f; }

void stepA(float *d, float *h, int n) {
  twice<<<1, 64>>>(d); // not applied: the program starts host threads (std::thread at starter.cu:
}
