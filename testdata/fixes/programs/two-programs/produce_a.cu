// Program A's callees (main_a.cu).
#include <cuda_runtime.h>

__global__ void fill(unsigned *d) { d[threadIdx.x] += 1; }

// Leaves only legacy-stream work pending (HeCBench lfib4's gLFIB4, as in
// callee-leaves/): alone in its program, main_a's copy after its call
// could wait for the per-thread stream only.
void produce(unsigned *d) {
  cudaStream_t a, b;
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  fill<<<1, 4, 0, a>>>(d);
  fill<<<1, 4, 0, b>>>(d + 4);
  cudaStreamSynchronize(a);
  cudaStreamSynchronize(b);
  fill<<<1, 8>>>(d);
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
}

// Defined here only: its facts decide for every caller.
void produceOnce(unsigned *d) { fill<<<1, 8>>>(d); }

// Called after 'produce', whose two definitions leave different work
// pending: its launch stays on the legacy stream, which orders it after
// either.
void consume(unsigned *d) { fill<<<1, 8>>>(d); } // not applied: follows a call of 'produce', which is defined at
