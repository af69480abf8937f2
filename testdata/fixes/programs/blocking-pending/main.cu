// Callees that return with work still pending, each called in a loop that
// then copies the result to the host with a synchronous cudaMemcpy on the
// legacy stream (HeCBench lfib4's shape). That copy waits for all earlier
// work on blocking streams, so the callee's next call finds nothing of it
// pending when all it left is on blocking streams. Each loop ends with a
// device-wide wait, so only its own callee is pending at its calls.
#include <cuda_runtime.h>

void generate(unsigned *d, const unsigned *seed);
void generateBlocking(unsigned *d, const unsigned *seed);
void generateNonBlocking(unsigned *d, const unsigned *seed);
void generateOnParameters(unsigned *d, const unsigned *seed, cudaStream_t s, cudaStream_t t);

int main() {
  unsigned *d, h[64], seed[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  cudaStream_t s, t;
  cudaStreamCreate(&s);
  cudaStreamCreate(&t);
  for (int r = 0; r < 8; ++r) {
    cudaMalloc(&d, 256);
    generate(d, seed);
    // 'generate' leaves only legacy-stream work pending: the per-thread
    // stream waits for it (lfib4's main.cu:251).
    cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost); // applied
    cudaFree(d);
  }
  cudaDeviceSynchronize();
  for (int r = 0; r < 8; ++r) {
    generateBlocking(d, seed);
    cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost);
  }
  cudaDeviceSynchronize();
  for (int r = 0; r < 8; ++r) {
    generateNonBlocking(d, seed);
    cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost);
  }
  cudaDeviceSynchronize();
  for (int r = 0; r < 8; ++r) {
    generateOnParameters(d, seed, s, t);
    cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost);
  }
  __builtin_printf("%u\n", h[0]);
  return 0;
}
