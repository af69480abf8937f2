// Two GPUs in one process with NCCL (issue 27): ncclCommInitAll, five
// rounds of a grouped ncclAllReduce on the legacy default stream and on
// created streams; loops over the devices at set-up and teardown. `// LIBRARY: <status>` is the run-time
// status library-default-stream's finding must get once the probe's trace is
// merged (testdata/gpu/nccl_evidence.sh); `// PLACED:` lines are where every
// run-time observation must land (the program's own lines: nothing inside
// libnccl); `// SET-UP` loops are not hot paths (no warning in them).
// Build: nvcc -g -arch=sm_90 -I<nccl include> nccl_two_gpus.cu -lnccl
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>

#define CUDA_OK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
#define NCCL_OK(x) do { ncclResult_t r_ = (x); if (r_ != ncclSuccess) { \
  std::printf("NCCL error %s at line %d\n", ncclGetErrorString(r_), __LINE__); return 1; } } while (0)

constexpr int kDevices = 2;
constexpr size_t kCount = 1 << 20;

int main() {
  int available = 0;
  CUDA_OK(cudaGetDeviceCount(&available));
  if (available < kDevices) {
    std::printf("needs %d GPUs, found %d\n", kDevices, available);
    return 77;
  }
  int devices[kDevices] = {0, 1};
  ncclComm_t comms[kDevices];
  cudaStream_t streams[kDevices];
  float *buffers[kDevices];
  NCCL_OK(ncclCommInitAll(comms, kDevices, devices)); // PLACED
  for (int d = 0; d < kDevices; ++d) { // SET-UP
    CUDA_OK(cudaSetDevice(d));
    CUDA_OK(cudaStreamCreate(&streams[d]));
    CUDA_OK(cudaMalloc(&buffers[d], kCount * sizeof(float)));
    CUDA_OK(cudaMemsetAsync(buffers[d], 0, kCount * sizeof(float), streams[d]));
  }
  for (int round = 0; round < 5; ++round) {
    NCCL_OK(ncclGroupStart());
    for (int d = 0; d < kDevices; ++d)
      NCCL_OK(ncclAllReduce(buffers[d], buffers[d], kCount, ncclFloat, ncclSum, comms[d], 0)); // LIBRARY: confirmed
    NCCL_OK(ncclGroupEnd()); // PLACED
    NCCL_OK(ncclGroupStart());
    for (int d = 0; d < kDevices; ++d)
      NCCL_OK(ncclAllReduce(buffers[d], buffers[d], kCount, ncclFloat, ncclSum, comms[d], streams[d]));
    NCCL_OK(ncclGroupEnd()); // PLACED
  }
  NCCL_OK(ncclCommCount(comms[0], &available));
  for (int d = 0; d < kDevices; ++d) { // SET-UP
    CUDA_OK(cudaSetDevice(d));
    CUDA_OK(cudaStreamSynchronize(streams[d]));
    CUDA_OK(cudaDeviceSynchronize());
  }
  float first = -1;
  CUDA_OK(cudaSetDevice(0));
  CUDA_OK(cudaMemcpy(&first, buffers[0], sizeof first, cudaMemcpyDeviceToHost));
  for (int d = 0; d < kDevices; ++d) { // SET-UP
    CUDA_OK(cudaSetDevice(d));
    CUDA_OK(cudaStreamDestroy(streams[d]));
    CUDA_OK(cudaFree(buffers[d]));
    NCCL_OK(ncclCommDestroy(comms[d])); // PLACED
  }
  std::printf("allreduce rounds done, element 0 = %.1f\n", first);
  return 0;
}
