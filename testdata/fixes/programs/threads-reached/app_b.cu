// Program B: its main calls runWorkers (workers_b.cu), which starts host
// threads.
#include <cuda_runtime.h>

void runWorkers(float *d);
void stepShared(float *d, float *h, int n);

int main() {
  float *d, h[64];
  cudaMalloc(&d, 256);
  cudaStream_t s;
  cudaStreamCreate(&s);
  runWorkers(d);
  stepShared(d, h, 256);
  cudaStreamDestroy(s);
  cudaFree(d);
  return 0;
}
