#include <cuda_runtime.h>

#include "alloc.cuh"

int main() {
  size_t n = 1 << 20;
  float *device = nullptr;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaMalloc(&device, n * sizeof(float));
  float *host = (float *)mallocChecked(n * sizeof(float));
  cudaMemcpyAsync(device, host, n * sizeof(float), cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{from pageable host memory (malloc, returned by 'mallocChecked')}}
  float *floats = floatsChecked(n);
  cudaMemcpyAsync(floats, device, n * sizeof(float), cudaMemcpyDeviceToHost, stream); // CHECK: pageable-memcpy-async {{to pageable host memory (malloc, returned by 'mallocChecked', returned by 'floatsChecked')}}
  float *across = floatsAcross(n);
  cudaMemcpyAsync(device, across, n * sizeof(float), cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{from pageable host memory (malloc, returned by 'mallocChecked')}}
  float *pinned = (float *)mallocPinned(n * sizeof(float));
  cudaMemcpyAsync(device, pinned, n * sizeof(float), cudaMemcpyHostToDevice, stream);
  cudaMemcpyAsync(device, unknownSource(n), n, cudaMemcpyHostToDevice, stream);
  float *registered = (float *)mallocChecked(n * sizeof(float));
  cudaHostRegister(registered, n * sizeof(float), cudaHostRegisterDefault);
  cudaMemcpyAsync(device, registered, n * sizeof(float), cudaMemcpyHostToDevice, stream);
  cudaStreamSynchronize(stream);
  return 0;
}
