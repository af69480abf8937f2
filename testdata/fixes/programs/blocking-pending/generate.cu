// The callees of main.cu. Each uses two stream variables, so device-sync
// makes its synchronous copies Async on cudaStreamPerThread (rule 10); the
// host then no longer waits for what the callers left pending, which the
// callers' synchronous legacy copy to the host after each call decides.
#include <cuda_runtime.h>

__global__ void fill(unsigned *d) { d[threadIdx.x] += 1; }

// lfib4's gLFIB4: the streams' work is waited for, the legacy-stream
// launches at the end are left pending.
void generate(unsigned *d, const unsigned *seed) {
  cudaMemcpy(d, seed, 16, cudaMemcpyHostToDevice); // applied
  cudaMemset(d + 4, 0, 16); // applied
  cudaStream_t a, b;
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  fill<<<1, 4, 0, a>>>(d);
  fill<<<1, 4, 0, b>>>(d + 4);
  cudaStreamSynchronize(a);
  cudaStreamSynchronize(b);
  fill<<<1, 8>>>(d); // applied
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
}

// Work left pending on two streams created blocking (cudaStreamCreate,
// cudaStreamCreateWithFlags with cudaStreamDefault).
void generateBlocking(unsigned *d, const unsigned *seed) {
  cudaMemcpy(d, seed, 16, cudaMemcpyHostToDevice); // applied
  cudaStream_t a, b;
  cudaStreamCreate(&a);
  cudaStreamCreateWithFlags(&b, cudaStreamDefault);
  fill<<<1, 4, 0, a>>>(d);
  fill<<<1, 4, 0, b>>>(d + 4);
}

// A non-blocking stream: the caller's legacy copy never waited for it.
void generateNonBlocking(unsigned *d, const unsigned *seed) {
  cudaMemcpy(d, seed, 16, cudaMemcpyHostToDevice); // not applied: follows a call of 'generateNonBlocking', which may return with work pending that the caller's copy to the host did not wait for
  cudaStream_t a, b;
  cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  cudaStreamCreate(&b);
  fill<<<1, 4, 0, a>>>(d);
  fill<<<1, 4, 0, b>>>(d + 4);
}

// Streams the callers pass: not known to be blocking here.
void generateOnParameters(unsigned *d, const unsigned *seed, cudaStream_t s, cudaStream_t t) {
  cudaMemcpy(d, seed, 16, cudaMemcpyHostToDevice); // not applied: follows a call of 'generateOnParameters', which may return with work pending that the caller's copy to the host did not wait for
  fill<<<1, 4, 0, s>>>(d);
  fill<<<1, 4, 0, t>>>(d + 4);
}
