// One check's options must never change another check's findings
// (tests/checks/OptionIsolationTest.cpp). The wrappers below are what
// alloc-in-loop.ExtraAllocFunctions / ExtraFreeFunctions and
// device-sync.ExtraSyncFunctions name; their bodies synchronize and call the
// CUDA API, which device-sync and api-in-host-callback report whatever
// alloc-in-loop is told about them.
#include <cuda_runtime.h>

void *poolAlloc(size_t bytes) {
  void *p = nullptr;
  cudaMalloc(&p, bytes);
  cudaDeviceSynchronize();
  return p;
}
void poolFree(void *p) { cudaFree(p); }

void churn(int n) {
  for (int i = 0; i < n; ++i) {
    void *p = poolAlloc(64);
    poolFree(p);
  }
}

void CUDART_CB onDone(void *) { poolFree(poolAlloc(8)); }

void enqueue(cudaStream_t stream, float *host, float *device, size_t bytes) {
  cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream);
  cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice);
  cudaLaunchHostFunc(stream, onDone, nullptr);
}
