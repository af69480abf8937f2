// Library work on the default stream, for the probe and library-default-stream
// (testdata/gpu/library_evidence.sh): an unbound cuBLAS handle (its GEMMs go
// to the legacy stream), a bound one, Thrust with and without a stream
// policy, CUB with and without a stream. Markers on a line: the merged
// report's library status there, and the misuses only the probe finds there.
#include <cublas_v2.h>
#include <cub/device/device_reduce.cuh>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>
#include <cstdio>

__global__ void fill(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = (i % 7) * 0.5f;
}

int main() {
  const int n = 256;
  float *a, *b, *c;
  cudaMalloc(&a, n * n * sizeof(float));
  cudaMalloc(&b, n * n * sizeof(float));
  cudaMalloc(&c, n * n * sizeof(float));
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  fill<<<n, n, 0, stream>>>(a, n * n);
  fill<<<n, n, 0, stream>>>(b, n * n);
  cudaStreamSynchronize(stream);
  const float one = 1, zero = 0;

  cublasHandle_t unbound;
  cublasCreate(&unbound); // LIBRARY: confirmed
  for (int i = 0; i < 4; ++i)
    cublasSgemm(unbound, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n);

  cublasHandle_t bound;
  cublasCreate(&bound);
  cublasSetStream(bound, stream);
  for (int i = 0; i < 4; ++i)
    cublasSgemm(bound, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, b, n, &zero, c, n);
  cudaStreamSynchronize(stream);

  thrust::device_vector<float> v(c, c + n * n); // RUNTIME-ONLY: default-stream device-sync
  thrust::sort(v.begin(), v.end()); // LIBRARY: confirmed RUNTIME-ONLY: device-sync
  thrust::sort(thrust::cuda::par.on(stream), v.begin(), v.end());
  cudaStreamSynchronize(stream);

  float *sum;
  cudaMalloc(&sum, sizeof(float));
  void *tmp = nullptr;
  size_t bytes = 0;
  cub::DeviceReduce::Sum(tmp, bytes, c, sum, n * n, stream);
  cudaMalloc(&tmp, bytes);
  cub::DeviceReduce::Sum(tmp, bytes, c, sum, n * n); // LIBRARY: confirmed
  float host = 0;
  cudaMemcpy(&host, sum, sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("sum %.1f first %.1f\n", host, float(v[0])); // RUNTIME-ONLY: default-stream device-sync pageable-memcpy-async
  cublasDestroy(unbound); // RUNTIME-ONLY: device-sync
  cublasDestroy(bound);   // RUNTIME-ONLY: device-sync
  return 0;
}
