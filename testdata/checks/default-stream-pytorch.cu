// default-stream in a PyTorch extension with library-default-stream
// disabled: the sites library-default-stream would claim (launches and
// stream-taking calls, fixed with PyTorch's current stream) return to
// default-stream, so disabling the owner hides nothing.
// ENV: stub
// CHECKS: -*,default-stream
#include <ATen/cuda/CUDAContext.h>

__global__ void add_kernel(const float *a, float *b, int n) {}

void add_cuda(const float *a, float *b, int n, const float *host) {
  add_kernel<<<(n + 255) / 256, 256>>>(a, b, n);  // CHECK: default-stream {{no stream given}}
  add_kernel<<<1, 256, 0, 0>>>(a, b, n);          // CHECK: default-stream {{stream is 0}}
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  add_kernel<<<1, 256, 0, stream>>>(a, b, n);
  cudaMemcpyAsync(b, host, n * sizeof(float), cudaMemcpyHostToDevice);  // CHECK: default-stream {{cudaMemcpyAsync}}
  cudaMemcpyAsync(b, host, n * sizeof(float), cudaMemcpyHostToDevice, stream);
}
