// library-default-stream in a PyTorch extension (a TU including ATen's CUDA
// headers): launches and stream-taking calls must use PyTorch's current
// stream. default-stream leaves these sites to this check.
// ENV: stub
// CHECKS: -*,library-default-stream,default-stream
#include <ATen/cuda/CUDAContext.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

__global__ void add_kernel(const float *a, float *b, int n) {}

void add_cuda(const float *a, float *b, int n, const float *host) {
  add_kernel<<<(n + 255) / 256, 256>>>(a, b, n);          // CHECK: library-default-stream {{kernel launch in a PyTorch extension ignores the stream PyTorch runs it on (no stream given)}}
  add_kernel<<<1, 256, 0, 0>>>(a, b, n);                  // CHECK: library-default-stream {{(stream is 0)}}
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  add_kernel<<<1, 256, 0, stream>>>(a, b, n);
  add_kernel<<<1, 256, 0, at::cuda::getCurrentCUDAStream()>>>(a, b, n);
  cudaMemcpyAsync(b, host, n * sizeof(float), cudaMemcpyHostToDevice);  // CHECK: library-default-stream {{cudaMemcpyAsync in a PyTorch extension}}
  cudaMemcpyAsync(b, host, n * sizeof(float), cudaMemcpyHostToDevice, stream);
}

void sort_cuda(thrust::device_vector<int> &v) {
  thrust::sort(thrust::device, v.begin(), v.end());       // CHECK: library-default-stream {{in a PyTorch extension, whose work belongs on at::cuda::getCurrentCUDAStream()}}
  thrust::sort(thrust::cuda::par.on(at::cuda::getCurrentCUDAStream()), v.begin(), v.end());
}
