// library-default-stream: per-call stream arguments left out, 0 or NULL
// (cuBLASLt, NCCL, CUB's defaulted trailing stream).
// The real environment needs CCCL on the include path (nvcc adds it implicitly).
// RUN-ARGS: -isystem /usr/local/cuda/include/cccl
#include <cublasLt.h>
#include <cub/cub.cuh>
#include <nccl.h>

void matmul(cublasLtHandle_t lt, cublasLtMatmulDesc_t desc, cublasLtMatrixLayout_t layout,
            const float *A, const float *B, float *C, void *workspace, size_t bytes,
            cudaStream_t stream) {
  float one = 1, zero = 0;
  // CHECK@+1: library-default-stream {{cublasLtMatmul runs on the legacy default stream (stream is 0)}}
  cublasLtMatmul(lt, desc, &one, A, layout, B, layout, &zero, C, layout, C, layout,
                 nullptr, workspace, bytes, 0);
  cublasLtMatmul(lt, desc, &one, A, layout, B, layout, &zero, C, layout, C, layout,
                 nullptr, workspace, bytes, stream);
  // CHECK@+1: library-default-stream {{(cudaStreamLegacy)}}
  cublasLtMatmul(lt, desc, &one, A, layout, B, layout, &zero, C, layout, C, layout,
                 nullptr, workspace, bytes, cudaStreamLegacy);
}

void collectives(const float *send, float *recv, size_t n, ncclComm_t comm,
                 cudaStream_t stream) {
  ncclAllReduce(send, recv, n, ncclFloat, ncclSum, comm, 0);     // CHECK: library-default-stream {{ncclAllReduce runs on the legacy default stream (stream is 0) (NCCL is built}}
  ncclAllReduce(send, recv, n, ncclFloat, ncclSum, comm, stream);
  ncclBroadcast(send, recv, n, ncclFloat, 0, comm, NULL);        // CHECK: library-default-stream {{(stream is NULL)}}
  cudaStream_t none = 0;
  ncclGroupStart();
  ncclSend(send, n, ncclFloat, 1, comm, none);                   // CHECK: library-default-stream {{('none' is only ever 0)}}
  ncclRecv(recv, n, ncclFloat, 1, comm, stream);
  ncclGroupEnd();
}

void reduce(const int *in, int *out, int n, cudaStream_t stream) {
  void *temp = nullptr;
  size_t bytes = 0;
  cub::DeviceReduce::Sum(temp, bytes, in, out, n);     // the size query: launches nothing
  cudaMalloc(&temp, bytes);
  cub::DeviceReduce::Sum(temp, bytes, in, out, n);     // CHECK: library-default-stream {{cub::DeviceReduce::Sum runs on the legacy default stream (no stream given)}}
  cub::DeviceReduce::Sum(temp, bytes, in, out, n, stream);
  cub::DeviceReduce::Sum(nullptr, bytes, in, out, n);
  cub::DeviceReduce::Sum(temp, bytes, in, out, n, 0);  // CHECK: library-default-stream {{(stream is 0)}}
}

void sortKeys(void *temp, size_t bytes, const unsigned *in, unsigned *out, int n) {
  cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, n);  // CHECK: library-default-stream {{cub::DeviceRadixSort::SortKeys}}
}

// cudaMemcpyToSymbolAsync without a stream belongs to default-stream: not
// reported twice.
__constant__ float table[16];
void symbol(const float *host) {
  cudaMemcpyToSymbolAsync(table, host, sizeof(table));
}
