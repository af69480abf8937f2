// Called from A's main only: A starts no host thread, so its legacy-stream
// work moves to the per-thread stream.
#include <cuda_runtime.h>

__global__ void twice(float *d) { d[threadIdx.x] *= 2.0f; }

void stepA(float *d, float *h, int n) {
  twice<<<1, 64>>>(d); // applied
  cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); // applied
}
