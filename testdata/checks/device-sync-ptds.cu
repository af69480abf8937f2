// RUN-ARGS: -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1
// Under the per-thread default stream, 0 and synchronous copies use the
// calling thread's stream: not device-wide.
#include <cuda_runtime.h>

void perThread(float *d, float *h, int n) {
  for (int i = 0; i < n; ++i) {
    cudaStreamSynchronize(0);
    cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost);
    cudaStreamSynchronize(cudaStreamLegacy); // CHECK: device-sync
    cudaDeviceSynchronize(); // CHECK: device-sync
  }
}
