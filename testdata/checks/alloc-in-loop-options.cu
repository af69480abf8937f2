// CHECK-OPTION: alloc-in-loop.ExtraAllocFunctions=poolAlloc;pinHost
// CHECK-OPTION: alloc-in-loop.ExtraFreeFunctions=poolFree
#include <cuda_runtime.h>

void *poolAlloc(size_t bytes) { void *p = nullptr; cudaMalloc(&p, bytes); return p; }
void poolFree(void *p) { cudaFree(p); }

void loop(int n) {
  for (int i = 0; i < n; ++i) {
    void *p = poolAlloc(64); // CHECK: alloc-in-loop {{'poolAlloc'}}
    poolFree(p); // CHECK: alloc-in-loop
  }
  // Allocation-only wrappers in a loop: a set-up loop.
  for (int i = 0; i < n; ++i)
    poolAlloc(8);
}
