// The end of the chain: 'stream' is what main.cu created.
#include <cuda_runtime.h>

__global__ void init(float *d) { d[threadIdx.x] = 1.0f; }
__global__ void fill(float *d, float v) { d[threadIdx.x] += v; }
__global__ void step(float *d) { d[threadIdx.x] += 1.0f; }

// 'stream' is blocking (cudaStreamCreate in main, through pipeline): the
// legacy copy main makes after pipeline returns still waits for fill.
void stage(float *d, cudaStream_t stream) {
  init<<<1, 64, 0, stream>>>(d);
  fill<<<1, 64>>>(d, 2.0f); // applied
}

// 'stream' is non-blocking there: main's legacy copy after the call would
// no longer wait for fill, and no wait can be written in main from here.
void stageNonBlocking(float *d, cudaStream_t stream) {
  init<<<1, 64, 0, stream>>>(d);
  fill<<<1, 64>>>(d, 2.0f); // not applied: returns to its callers
}

// Its one caller (main) has nothing pending when it calls it: the host
// needs only 'stream' drained.
void narrowSync(float *d, cudaStream_t stream) {
  for (int i = 0; i < 4; ++i) {
    step<<<1, 64, 0, stream>>>(d);
    cudaDeviceSynchronize(); // applied
  }
}
