// library-default-stream's suggested fixes (not applied by --fix): bind the
// one stream in scope, pass it, put Thrust on it.
#include <cub/cub.cuh>
#include <cublas_v2.h>
#include <cufft.h>
#include <nccl.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>
#include <stdlib.h>

#define CUBLAS_CHECK(call) do { if ((call) != CUBLAS_STATUS_SUCCESS) abort(); } while (0)

__global__ void kernel(int *data) {}

void gemm(const float *x, float *y, int n, cudaStream_t stream) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  const float one = 1.0f;
  cublasSaxpy(handle, n, &one, x, 1, y, 1);
  kernel<<<1, 32, 0, stream>>>(nullptr);
}

void fft(cufftReal *in, cufftComplex *out, cudaStream_t s) {
  cufftHandle plan;
  cufftResult status = cufftPlan1d(&plan, 1024, CUFFT_R2C, 1);
  cufftExecR2C(plan, in, out);
  kernel<<<1, 32, 0, s>>>(nullptr);
}

void calls(const float *send, float *recv, size_t n, ncclComm_t comm, void *temp,
           size_t bytes, const int *in, int *out, cudaStream_t stream) {
  kernel<<<1, 32, 0, stream>>>(out);
  ncclAllReduce(send, recv, n, ncclFloat, ncclSum, comm, 0);
  cub::DeviceReduce::Sum(temp, bytes, in, out, n);
}

void sorts(thrust::device_vector<int> &v, int *raw, cudaStream_t stream) {
  kernel<<<1, 32, 0, stream>>>(raw);
  thrust::sort(v.begin(), v.end());
  thrust::sort(thrust::device, v.begin(), v.end());
  thrust::sort(thrust::cuda::par, v.begin(), v.end());
}

// Two streams: which one is meant is a guess, so no edit.
void twoStreams(const float *x, float *y, int n, cudaStream_t a, cudaStream_t b) {
  kernel<<<1, 32, 0, a>>>(nullptr);
  kernel<<<1, 32, 0, b>>>(nullptr);
  ncclAllReduce(x, y, n, ncclFloat, ncclSum, nullptr, 0);
}
