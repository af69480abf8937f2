// Program B's 'produce': it returns with its kernel still running on a
// stream it created, which the per-thread stream does not wait for. Had
// program A's facts decided (before 2026-11-29 the first TU's did), the
// copy after its call in main_b.cu would have stopped waiting for it.
#include <cuda_runtime.h>

__global__ void add(unsigned *d) { d[threadIdx.x] += 2; }

void produce(unsigned *d) {
  cudaStream_t a;
  cudaStreamCreate(&a);
  add<<<1, 4, 0, a>>>(d);
}
