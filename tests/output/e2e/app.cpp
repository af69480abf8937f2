// End-to-end fixture for outputs, suppressions and baselines: every call
// below is a device-sync finding unless a NOLINT comment covers it.
#include <cuda_runtime.h>

void step() {
  cudaDeviceSynchronize();
  cudaDeviceSynchronize(); // NOLINT(device-sync)
  // NOLINTNEXTLINE(streamlint-device-*)
  cudaDeviceSynchronize();
  /* é → */ cudaDeviceSynchronize();
}

// NOLINTBEGIN(device-sync)
void quiet() { cudaDeviceSynchronize(); }
// NOLINTEND(device-sync)
