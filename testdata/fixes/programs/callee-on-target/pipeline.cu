// fill moves to s. The call after it passes s too: whether fill still runs
// before that callee's work depends on the callee's body, in another file.
#include <cuda_runtime.h>

__global__ void fill(float *d) { d[threadIdx.x] = 1.0f; }

void scale(float *d, cudaStream_t stream); // all its work on 'stream'
void scaleMixed(float *d, cudaStream_t stream); // also on the legacy stream
void scaleReassigned(float *d, cudaStream_t stream); // overwrites 'stream'

void process(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 256, cudaMemcpyHostToDevice, s);
  fill<<<1, 64>>>(d); // applied
  scale(d, s);
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
}

void processMixed(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 256, cudaMemcpyHostToDevice, s);
  fill<<<1, 64>>>(d); // applied
  scaleMixed(d, s);
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
}

void processReassigned(float *d, float *h, cudaStream_t s) {
  cudaMemcpyAsync(d, h, 256, cudaMemcpyHostToDevice, s);
  fill<<<1, 64>>>(d); // applied
  scaleReassigned(d, s);
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, s);
}
