// A host function registered through a driver entry point fetched by name
// (cudaGetDriverEntryPointByVersion), not imported: the probe turns every
// runtime callback on at the fetch (runtime_probe/CallbackSelection.h), so a
// call no other check reads is still seen on the driver's callback thread.
// No static finding can see this registration: the probe's observation is
// runtime-only.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

static void CUDA_CB reportDevice(void *out) {
  int device = -1;
  cudaGetDevice(&device); // PROBE: api-in-host-callback=runtime-only
  *static_cast<int *>(out) = device;
}

int main() {
  using LaunchHostFunc = CUresult (*)(CUstream, CUhostFn, void *);
  void *entry = nullptr;
  cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
  if (cudaGetDriverEntryPointByVersion("cuLaunchHostFunc", &entry, 12000, cudaEnableDefault,
                                       &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess) {
    std::fprintf(stderr, "cuLaunchHostFunc not found\n");
    return 1;
  }
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  int device = -2;
  reinterpret_cast<LaunchHostFunc>(entry)(s, reportDevice, &device);
  cudaStreamSynchronize(s); // PROBE: device-sync=none
  std::printf("host function saw device %d\n", device);
  cudaStreamDestroy(s);
  return device == 0 ? 0 : 1;
}
