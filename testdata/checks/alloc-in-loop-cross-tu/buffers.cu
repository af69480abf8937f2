// The allocations live here; the loop that makes them churn is in main.cu.
#include <cuda_runtime.h>

#include "buffers.cuh"

float *acquireScratch(size_t bytes) {
  float *scratch = nullptr;
  cudaMalloc(&scratch, bytes); // CHECK: alloc-in-loop {{called from the loop at main.cu:10 through acquireScratch}}
  return scratch;
}

void releaseScratch(float *scratch) {
  cudaFree(scratch); // CHECK: alloc-in-loop {{main.cu:10}}
}

// Called only from a set-up loop in main.cu: not a finding.
float *allocateOne(size_t bytes) {
  float *buffer = nullptr;
  cudaMalloc(&buffer, bytes);
  return buffer;
}
