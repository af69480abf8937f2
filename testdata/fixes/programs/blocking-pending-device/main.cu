// blocking-pending's shape with a callee that selects a device: the
// legacy stream of the device the caller's copy runs on orders nothing of
// another device's streams, so the copy covers none of the callee's work.
#include <cuda_runtime.h>

void generateOnDevice(unsigned *d, const unsigned *seed, int device);

int main() {
  unsigned *d, h[64], seed[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  cudaMalloc(&d, 256);
  for (int r = 0; r < 8; ++r) {
    generateOnDevice(d, seed, r % 2);
    cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost);
  }
  __builtin_printf("%u\n", h[0]);
  return 0;
}
