// Two programs in one compile database, as a suite's top-level CMake build
// gives them: main_a.cu with produce_a.cu, main_b.cu with produce_b.cu.
// Both define a 'produce' of their own. Which one a call links is not in
// the database, so neither definition's facts decide a caller's fix; a
// function only one file defines ('produceOnce') still does.
#include <cuda_runtime.h>

void produce(unsigned *d);
void produceOnce(unsigned *d);
void consume(unsigned *d);

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
  for (int r = 0; r < 2; ++r) {
    produceOnce(d);
    cudaMemcpy(h, d, 32, cudaMemcpyDeviceToHost); // applied
  }
  cudaDeviceSynchronize();
  produce(d);
  consume(d);
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
