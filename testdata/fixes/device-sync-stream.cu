#include <cuda_runtime.h>

__global__ void step(float *d) { d[0] += 1.0f; }

// Nothing is pending when the loop starts (the callers' work included), and
// the loop only uses s: waiting for s is waiting for everything.
void iterate(float *d, float *h, cudaStream_t s, int n) {
  cudaDeviceSynchronize();
  for (int i = 0; i < n; ++i) {
    step<<<1, 1, 0, s>>>(d);
    cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
    cudaDeviceSynchronize();
  }
}

// Not fixed: the loop uses two streams.
void twoStreams(float *d, cudaStream_t a, cudaStream_t b, int n) {
  for (int i = 0; i < n; ++i) {
    step<<<1, 1, 0, a>>>(d);
    step<<<1, 1, 0, b>>>(d);
    cudaDeviceSynchronize();
  }
}

// Not fixed: the default stream.
void defaultStream(float *d, int n) {
  for (int i = 0; i < n; ++i) {
    step<<<1, 1>>>(d);
    cudaDeviceSynchronize();
  }
}
