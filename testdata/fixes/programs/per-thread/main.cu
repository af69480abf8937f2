// The per-thread default stream as the target: the functions of legacy.cu
// use no stream variable; main creates a blocking stream and runs
// everything on this one host thread.
#include <cuda_runtime.h>

__global__ void bump(float *d) { d[0] += 1.0f; }

void legacyStep(float *d, float *h, int n);
void afterStream(float *d);
void produce(float *d);
void timedOnly(float *d);
void fanOut(float *d, cudaStream_t *streams, int n);

void launchNoWait(float *d, cudaStream_t s) { bump<<<1, 1, 0, s>>>(d); }

int main() {
  float *d, h[64];
  cudaMalloc(&d, 256);
  cudaStream_t s;
  cudaStreamCreate(&s);
  for (int i = 0; i < 10; ++i) {
    legacyStep(d, h, 256);
    launchNoWait(d, s);
    afterStream(d);
    cudaStreamSynchronize(s);
    produce(d);
    bump<<<1, 1, 0, s>>>(d);
    cudaDeviceSynchronize();
    timedOnly(d);
  }
  cudaStream_t fan[4];
  for (int i = 0; i < 4; ++i)
    cudaStreamCreate(&fan[i]);
  fanOut(d, fan, 4);
  __builtin_printf("%g\n", h[0]);
  return 0;
}
