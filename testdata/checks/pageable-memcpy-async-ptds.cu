// pageable-memcpy-async under --default-stream per-thread: the _ptsz names.
// RUN-ARGS: -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1
#include <cuda_runtime.h>

#include <vector>

__device__ float symbol[64];

void perThread(float *device, cudaStream_t stream) {
  std::vector<float> host(64);
  cudaMemcpyAsync(device, host.data(), 256, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{cudaMemcpyAsync from pageable host memory (std::vector 'host' storage)}}
  cudaMemcpy2DAsync(host.data(), 16, device, 16, 16, 16, cudaMemcpyDeviceToHost); // CHECK: pageable-memcpy-async
  cudaMemcpyToSymbolAsync(symbol, host.data(), 256, 0, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async
  float *pinned;
  cudaMallocHost((void **)&pinned, 256);
  cudaMemcpyAsync(device, pinned, 256, cudaMemcpyHostToDevice, stream);
}
