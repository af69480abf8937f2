// pageable-memcpy-async: cudaDeviceReset frees all pinned memory, so a
// program that resets the device gets no pinned allocation (the host could
// still use the buffer after the reset). Checked by
// tests/checks/OrderingFixTest.cpp ("// no fix: <reason>").
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

int main() {
  size_t n = 1024;
  float *device = nullptr;
  cudaMalloc(&device, n);
  float *h = (float *)malloc(n);
  cudaMemcpyAsync(h, device, n, cudaMemcpyDeviceToHost, 0); // no fix: the program destroys the CUDA context (cudaDeviceReset at line 18)
  cudaDeviceSynchronize();
  cudaFree(device);
  cudaDeviceReset();
  printf("%g\n", h[0]);
  free(h);
  return 0;
}
