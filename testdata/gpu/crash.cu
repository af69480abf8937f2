// Dies of SIGABRT after CUDA work: the probe must still flush its trace and
// the launcher must die of the same signal.
#include <cstdlib>
#include <cuda_runtime.h>

int main() {
  void *d = nullptr;
  for (int i = 0; i < 3; ++i) {
    cudaMalloc(&d, 1024); // PROBE: alloc-in-loop=confirmed
    cudaFree(d); // PROBE: alloc-in-loop=confirmed
  }
  cudaDeviceSynchronize(); // PROBE: device-sync=confirmed
  std::abort();
}
