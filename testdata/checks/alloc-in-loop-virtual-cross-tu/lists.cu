#include <cuda_runtime.h>

#include "resources.cuh"

__global__ void fill(float *list) { list[0] = 0; }

// Reserve and reclaim per list: both calls through the base class.
void reclaimPerList(Resources &resources, int lists) {
  for (int list = 0; list < lists; ++list) {
    float *buffer = static_cast<float *>(resources.allocMemory(1 << 20));
    fill<<<1, 1>>>(buffer);
    resources.deallocMemory(buffer);
  }
}

// Only allocates per iteration (set-up): not a churning loop.
void setUp(Resources *resources, void **slots, int n) {
  for (int i = 0; i < n; ++i)
    slots[i] = resources->allocMemory(64);
}

// A qualified call is not virtual: it names the one function it runs.
void qualified(NullResources &resources, int n) {
  for (int i = 0; i < n; ++i)
    resources.NullResources::deallocMemory(resources.NullResources::allocMemory(64));
}
