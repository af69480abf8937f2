// The same function as in per-thread/: refused for the program's threads.
#include <cuda_runtime.h>

__global__ void twice(float *d) { d[0] *= 2.0f; }

void legacyStep(float *d, float *h, int n) {
  twice<<<1, 64>>>(d); // not applied: the program starts host threads (pthread_create at main.cu:21)
  cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); // not applied: the program starts host threads
}
