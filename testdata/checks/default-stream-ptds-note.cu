// default-stream, PerThreadDefaultStream=note: per-thread default stream
// uses are mentioned as notes; cudaStreamLegacy stays a warning.
// RUN-ARGS: -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1
// CHECK-OPTION: default-stream.PerThreadDefaultStream=note
#include <cuda_runtime.h>

__global__ void kernel(float *data) {}

void perThread(float *d, const float *h, cudaStream_t s) {
  kernel<<<1, 32>>>(d);                                     // CHECK: default-stream(note) {{per-thread default stream}}
  cudaMemcpyAsync(d, h, 4, cudaMemcpyHostToDevice);         // CHECK: default-stream(note)
  cudaMemcpyAsync(d, h, 4, cudaMemcpyHostToDevice, s);
  kernel<<<1, 32, 0, cudaStreamLegacy>>>(d);                // CHECK: default-stream
}
