// Program A of two in one compile database (threaded.cu is program B): B
// starts a host thread, A does not. A function defined in the file that
// defines A's main is in A's program only (two mains do not link), so B's
// thread does not keep its moves to cudaStreamPerThread suggestions.
#include <cuda_runtime.h>

__global__ void twice(float *d) { d[0] *= 2.0f; }

void legacyStep(float *d, float *h, int n) {
  twice<<<1, 64>>>(d); // applied
  cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); // applied
}

int main() {
  float *d, h[64];
  cudaMalloc(&d, 256);
  cudaStream_t s;
  cudaStreamCreate(&s);
  for (int i = 0; i < 10; ++i)
    legacyStep(d, h, 256);
  cudaStreamDestroy(s);
  return 0;
}
