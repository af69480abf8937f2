// A host function registered through a driver entry point fetched by name
// (cudaGetDriverEntryPointByVersion), not imported: the probe turns every
// runtime callback on at the fetch (runtime_probe/CallbackSelection.h), so a
// call no other check reads is still seen on the driver's callback thread.
// No static finding can see this registration: the probe's observation is
// runtime-only.
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

// CUDA calls are not permitted in a host function: cudaGetDevice there may
// fail (it returns cudaErrorNotPermitted on the H100/H200 driver of the last
// GPU run), so the program's result is that the function ran, not what the
// call returned; it exits 0 with and without the probe.
struct HostFunctionRun {
  bool ran = false;
};

static void CUDA_CB reportDevice(void *out) {
  int device = -1;
  cudaGetDevice(&device); // PROBE: api-in-host-callback=runtime-only
  static_cast<HostFunctionRun *>(out)->ran = true;
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
  HostFunctionRun run;
  reinterpret_cast<LaunchHostFunc>(entry)(s, reportDevice, &run);
  cudaStreamSynchronize(s); // PROBE: device-sync=none
  std::printf("host function ran: %s\n", run.ran ? "yes" : "no");
  cudaStreamDestroy(s);
  return run.ran ? 0 : 1;
}
