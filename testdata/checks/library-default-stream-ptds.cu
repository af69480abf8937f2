// library-default-stream under per-thread default stream: CUB and Thrust are
// compiled into this TU, so their 0 stream is the per-thread one (quiet);
// cuBLAS and NCCL were built without it, so a 0 stream or an unbound handle
// is still the legacy stream.
// RUN-ARGS: -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1 -isystem /usr/local/cuda/include/cccl
#include <cub/cub.cuh>
#include <cublas_v2.h>
#include <nccl.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

__global__ void kernel(int *data) {}

void perThread(thrust::device_vector<int> &v, void *temp, size_t bytes, const int *in,
               int *out, int n, ncclComm_t comm, cudaStream_t stream) {
  kernel<<<1, 32, 0, stream>>>(out);
  cub::DeviceReduce::Sum(temp, bytes, in, out, n);
  thrust::sort(thrust::device, v.begin(), v.end());
  ncclAllReduce(in, out, n, ncclFloat, ncclSum, comm, 0);  // CHECK: library-default-stream {{(NCCL is built without per-thread default stream}}
  cublasHandle_t handle;
  cublasCreate(&handle);                                   // CHECK: library-default-stream {{cuBLAS handle 'handle'}}
  const float one = 1.0f;
  cublasSaxpy(handle, n, &one, (const float *)in, 1, (float *)out, 1);
  cublasHandle_t perThreadBound;
  cublasCreate(&perThreadBound);
  cublasSetStream(perThreadBound, cudaStreamPerThread);
  cublasSaxpy(perThreadBound, n, &one, (const float *)in, 1, (float *)out, 1);
}
