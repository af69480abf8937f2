// device-sync's narrowed wait relying on default-stream's moves: the host
// waits for work the function issued on the legacy stream, which
// default-stream's fixes move to cudaStreamPerThread. One fix makes the
// narrowing and the moves (docs/fixes.md, rule 10).
#include <cuda_runtime.h>

__global__ void twice(float *d) { d[0] *= 2.0f; }

// Nothing is pending at its call: the copies and launches move, and the
// wait for them narrows to the per-thread stream with them.
void copyLoop(float *d, const float *h, int n, int iterations) {
  for (int i = 0; i < iterations; ++i) {
    cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice); // applied
    twice<<<1, 64>>>(d); // applied
    cudaDeviceSynchronize(); // applied
  }
}

// Its caller has a launch on a created stream pending at the call: on the
// legacy stream this launch waited for it, and so did the device-wide wait.
void afterStream(float *d) {
  twice<<<1, 64>>>(d); // not applied: before it runs: its call at main.cu:18 (in 'main') follows the kernel launch
  cudaDeviceSynchronize(); // not applied: before it runs: its call at main.cu:18 (in 'main') follows the kernel launch
}
