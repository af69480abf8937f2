#include <cuda_runtime.h>

#include "buffers.cuh"

__global__ void work(float *scratch) { scratch[0] = 0; }
float *allocateOne(size_t bytes);

int main() {
  float *buffers[8];
  for (int step = 0; step < 100; ++step) {
    float *scratch = acquireScratch(1 << 20);
    work<<<1, 1>>>(scratch);
    releaseScratch(scratch);
  }
  for (int i = 0; i < 8; ++i)
    buffers[i] = allocateOne(64);
  return 0;
}
