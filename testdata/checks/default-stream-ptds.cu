// default-stream under per-thread default stream (the macro, as
// nvcc --default-stream per-thread defines it): an omitted stream or 0 is
// the per-thread stream; cudaStreamLegacy is still the legacy barrier.
// RUN-ARGS: -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1
#include <cuda_runtime.h>

__global__ void kernel(float *data) {}

void enqueue(float *d, cudaStream_t stream = 0) { kernel<<<1, 32, 0, stream>>>(d); }

void perThread(float *d, const float *h, cudaEvent_t e) {
  kernel<<<1, 32>>>(d);
  kernel<<<1, 32, 0, 0>>>(d);
  cudaMemcpyAsync(d, h, 4, cudaMemcpyHostToDevice);
  cudaMemsetAsync(d, 0, 4, nullptr);
  cudaEventRecord(e);
  enqueue(d);
  kernel<<<1, 32, 0, cudaStreamLegacy>>>(d);                // CHECK: default-stream {{cudaStreamLegacy}}
  cudaMemcpyAsync(d, h, 4, cudaMemcpyHostToDevice, cudaStreamLegacy); // CHECK: default-stream
  cudaStreamWaitEvent(cudaStreamLegacy, e, 0);             // CHECK: default-stream
}
