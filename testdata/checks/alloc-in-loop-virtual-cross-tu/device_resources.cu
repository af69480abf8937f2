// The overriders: reached through Resources& from the loop in lists.cu.
#include <cuda_runtime.h>

#include "resources.cuh"

void *DeviceResources::allocMemory(size_t bytes) {
  void *p = nullptr;
  cudaMalloc(&p, bytes); // CHECK: alloc-in-loop {{called from the loop at lists.cu:9 through DeviceResources::allocMemory (virtual call of 'Resources::allocMemory')}} [[calls 'DeviceResources::allocMemory (virtual call of 'Resources::allocMemory')' here]]
  return p;
}

void DeviceResources::deallocMemory(void *p) {
  cudaFree(p); // CHECK: alloc-in-loop {{called from the loop at lists.cu:9 through DeviceResources::deallocMemory (virtual call of 'Resources::deallocMemory')}}
}

void *HostResources::allocMemory(size_t bytes) {
  void *p = nullptr;
  cudaMallocHost(&p, bytes); // CHECK: alloc-in-loop {{'cudaMallocHost' allocates every iteration on a hot path: called from the loop at lists.cu:9 through HostResources::allocMemory}}
  return p;
}

void HostResources::deallocMemory(void *p) {
  cudaFreeHost(p); // CHECK: alloc-in-loop {{lists.cu:9 through HostResources::deallocMemory}}
}
