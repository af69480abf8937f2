// Leaves work pending on two streams it creates blocking, after selecting
// a device.
#include <cuda_runtime.h>

__global__ void fill(unsigned *d) { d[threadIdx.x] += 1; }

void generateOnDevice(unsigned *d, const unsigned *seed, int device) {
  cudaMemcpy(d, seed, 16, cudaMemcpyHostToDevice); // not applied: follows a call of 'generateOnDevice', which may return with work pending that the caller's copy to the host did not wait for
  cudaSetDevice(device);
  cudaStream_t a, b;
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  fill<<<1, 4, 0, a>>>(d);
  fill<<<1, 4, 0, b>>>(d + 4);
}
