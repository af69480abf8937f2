// default-stream: launches from device code (dynamic parallelism) use the
// launching block's own NULL stream, not the host's legacy stream.
// RUN-ARGS: -fgpu-rdc
#include <cuda_runtime.h>

__global__ void child(float *data) {}

__global__ void parent(float *d) { child<<<1, 1>>>(d); }

__device__ void helper(float *d) { child<<<1, 1, 0, 0>>>(d); }

__host__ __device__ void both(float *d) { child<<<1, 1>>>(d); } // CHECK: default-stream

void host(float *d) {
  parent<<<1, 1>>>(d);                                       // CHECK: default-stream
}
