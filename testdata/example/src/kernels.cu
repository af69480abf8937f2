#include "pipeline.h"

__global__ void scaleKernel(float *data, int count, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    data[i] *= factor;
}

__global__ void sumKernel(const float *data, int count, float *result) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    atomicAdd(result, data[i]);
}

void launchScale(float *data, int count, float factor, cudaStream_t stream) {
  scaleKernel<<<(count + 255) / 256, 256, 0, stream>>>(data, count, factor);
}

void launchSum(const float *data, int count, float *result, cudaStream_t stream) {
  sumKernel<<<(count + 255) / 256, 256, 0, stream>>>(data, count, result);
}
