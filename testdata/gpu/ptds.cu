// Built with --default-stream per-thread: an omitted stream is the
// per-thread stream (no misuse); cudaStreamLegacy still is the barrier.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void inc(int *x) { atomicAdd(x, 1); }

int main() {
  int *d = nullptr;
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int)); // PROBE: device-sync=none (cudaMemset_ptds: per-thread)
  for (int i = 0; i < 50; ++i)
    inc<<<1, 32>>>(d); // PROBE: default-stream=none
  inc<<<1, 32, 0, cudaStreamLegacy>>>(d); // PROBE: default-stream=confirmed
  int h = 0;
  cudaMemcpyAsync(&h, d, sizeof(int), cudaMemcpyDeviceToHost, cudaStreamPerThread); // PROBE: default-stream=none, pageable-memcpy-async=confirmed (stack)
  cudaStreamSynchronize(cudaStreamPerThread); // PROBE: device-sync=none
  std::printf("count %d\n", h);
  cudaFree(d);
  return 0;
}
