// Program B: its main calls both of starter.cu's functions.
#include <cuda_runtime.h>

int startAtLoad();
void startInLambda(float *d);

int main() {
  float *d;
  cudaMalloc(&d, 256);
  cudaStream_t s;
  cudaStreamCreate(&s);
  startAtLoad();
  startInLambda(d);
  cudaStreamDestroy(s);
  cudaFree(d);
  return 0;
}
