// A program that creates no stream: all of its work is on the legacy
// stream, and moving it to the per-thread stream is a design decision the
// fix leaves to the user (a suggestion).
#include <cuda_runtime.h>

__global__ void twice(float *d) { d[0] *= 2.0f; }

void legacyStep(float *d, float *h, int n) {
  twice<<<1, 64>>>(d); // not applied: the program creates no stream
}

int main() {
  float *d, h[64];
  cudaMalloc(&d, 256);
  for (int i = 0; i < 10; ++i) {
    legacyStep(d, h, 256);
    cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost);
  }
  return 0;
}
