// Allocation wrappers, defined in their own TU.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#include "alloc.cuh"

void *mallocChecked(size_t bytes) {
  void *p = malloc(bytes);
  if (p == nullptr) {
    fprintf(stderr, "malloc(%zu) failed\n", bytes);
    exit(1);
  }
  return p;
}

void *mallocPinned(size_t bytes) {
  void *p = nullptr;
  cudaMallocHost(&p, bytes);
  return p;
}

// Forwards to mallocChecked: pageable too.
float *floatsChecked(size_t n) { return static_cast<float *>(mallocChecked(n * sizeof(float))); }

extern void *externalPool(size_t bytes);
void *unknownSource(size_t bytes) { return externalPool(bytes); }
