// alloc-in-loop at run time: churn, not repetition (issue 14). A set-up loop
// shaped like cuda-samples' simpleMultiCopy (one pinned and one device buffer
// per stream, allocated once, freed once at the end) is no misuse; a
// per-iteration allocation and its free is. Also the APIs the analyzer flags
// that the probe must observe: cudaMallocAsync/cudaFreeAsync on stream 0,
// and the driver API's cuMemAlloc/cuMemFree in a loop.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

constexpr int kStreams = 4;
constexpr size_t kBytes = 1 << 20;

__global__ void touch(char *p, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n)
    p[i] += 1;
}

// Called once per iteration of the caller: its allocation and free repeat.
static void scratchStep(cudaStream_t s) {
  char *scratch = nullptr;
  cudaMallocHost(&scratch, 4096); // PROBE: alloc-in-loop=confirmed
  cudaStreamSynchronize(s); // PROBE: device-sync=none
  cudaFreeHost(scratch); // PROBE: alloc-in-loop=confirmed
}

int main() {
  cudaStream_t streams[kStreams];
  char *hostIn[kStreams], *deviceIn[kStreams];
  for (int i = 0; i < kStreams; ++i) { // set-up: once per stream
    cudaStreamCreate(&streams[i]);
    cudaMallocHost(&hostIn[i], kBytes); // PROBE: alloc-in-loop=none
    cudaMalloc(&deviceIn[i], kBytes); // PROBE: alloc-in-loop=none
  }
  for (int round = 0; round < 20; ++round)
    for (int i = 0; i < kStreams; ++i) {
      cudaMemcpyAsync(deviceIn[i], hostIn[i], kBytes, cudaMemcpyHostToDevice, streams[i]); // PROBE: pageable-memcpy-async=none
      touch<<<kBytes / 256, 256, 0, streams[i]>>>(deviceIn[i], kBytes);
      cudaMemcpyAsync(hostIn[i] + 512, deviceIn[i], 512, cudaMemcpyDeviceToHost, streams[i]); // PROBE: pageable-memcpy-async=none
    }
  for (int i = 0; i < kStreams; ++i)
    cudaStreamSynchronize(streams[i]); // PROBE: device-sync=none

  for (int it = 0; it < 10; ++it) { // churn: allocate and free per iteration
    char *tmp = nullptr;
    cudaMalloc(&tmp, kBytes); // PROBE: alloc-in-loop=confirmed
    touch<<<kBytes / 256, 256, 0, streams[0]>>>(tmp, kBytes);
    cudaStreamSynchronize(streams[0]); // PROBE: device-sync=none
    cudaFree(tmp); // PROBE: alloc-in-loop=confirmed
  }
  for (int it = 0; it < 5; ++it)
    scratchStep(streams[1]);

  // Stream-ordered allocation on the legacy default stream.
  char *async = nullptr;
  cudaMallocAsync((void **)&async, kBytes, 0); // PROBE: default-stream=confirmed
  cudaFreeAsync(async, 0); // PROBE: default-stream=confirmed
  cudaDeviceSynchronize(); // PROBE: device-sync=confirmed

  // The driver API, called by the application itself.
  for (int it = 0; it < 3; ++it) {
    CUdeviceptr raw = 0;
    cuMemAlloc(&raw, kBytes); // PROBE: alloc-in-loop=confirmed
    // A synchronous driver copy on the legacy stream: the probe subscribes
    // to the table's driver copies (issue 24), so device-sync's finding is
    // reached and confirmed, not "not reached".
    cuMemcpyHtoD(raw, hostIn[0], kBytes); // PROBE: device-sync=confirmed
    cuMemFree(raw); // PROBE: alloc-in-loop=confirmed
  }

  long sum = 0;
  for (int i = 0; i < kStreams; ++i)
    sum += hostIn[i][512] + hostIn[i][0];
  std::printf("checksum %ld\n", sum);
  for (int i = 0; i < kStreams; ++i) { // tear-down: once per stream
    cudaFreeHost(hostIn[i]); // PROBE: alloc-in-loop=none
    cudaFree(deviceIn[i]); // PROBE: alloc-in-loop=none
    cudaStreamDestroy(streams[i]);
  }
  return 0;
}
