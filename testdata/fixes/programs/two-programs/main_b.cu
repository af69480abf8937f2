// Program B (with produce_b.cu): the same shape as main_a's first loop.
#include <cuda_runtime.h>

void produce(unsigned *d);

// The program creates a stream in its main file: its moves to the per-thread
// stream are not a design decision left to the user.
static cudaStream_t side;
static void createSide() { cudaStreamCreate(&side); }

int main() {
  unsigned *d, h[8];
  cudaMalloc(&d, 256);
  createSide();
  for (int r = 0; r < 2; ++r) {
    produce(d);
    cudaMemcpy(h, d, 32, cudaMemcpyDeviceToHost); // not applied: (two programs in one compile database?): which one is called here is not known
  }
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
