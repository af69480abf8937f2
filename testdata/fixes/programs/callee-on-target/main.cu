// The callers of process and processMixed, in another file: both pass a
// non-blocking stream and wait for the device after the call.
#include <cuda_runtime.h>

void process(float *d, float *h, cudaStream_t s);
void processMixed(float *d, float *h, cudaStream_t s);
void processReassigned(float *d, float *h, cudaStream_t s);

int main() {
  float *d, h[64] = {};
  cudaMalloc(&d, 256);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  process(d, h, s);
  cudaDeviceSynchronize();
  processMixed(d, h, s);
  cudaDeviceSynchronize();
  processReassigned(d, h, s);
  cudaDeviceSynchronize();
  cudaStreamDestroy(s);
  cudaFree(d);
  __builtin_printf("%g\n", h[0]);
  return 0;
}
