// No main anywhere in this program (a library): code outside the compile
// database may call these functions with any work pending.
#include <cuda_runtime.h>

__global__ void init(float *d) { d[threadIdx.x] = 1.0f; }
__global__ void fill(float *d, float v) { d[threadIdx.x] += v; }
__global__ void step(float *d) { d[threadIdx.x] += 1.0f; }

void libraryStep(float *d, cudaStream_t s) {
  init<<<1, 64, 0, s>>>(d);
  fill<<<1, 64>>>(d, 2.0f); // not applied: defines no main
}

void libraryLoop(float *d, cudaStream_t s) {
  for (int i = 0; i < 4; ++i) {
    step<<<1, 64, 0, s>>>(d);
    cudaDeviceSynchronize(); // not applied: defines no main
  }
}

void libraryCaller(float *d) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  libraryStep(d, s);
  libraryLoop(d, s);
  cudaStreamDestroy(s);
}
