// Streams created here: s reaches stage() through pipeline() (two calls,
// three files), and narrowSync() directly.
#include <cuda_runtime.h>

void pipeline(float *d, cudaStream_t s);
void pipelineNonBlocking(float *d, cudaStream_t s);
void narrowSync(float *d, cudaStream_t stream);

int main() {
  float *d, h[64];
  cudaMalloc(&d, 256);
  cudaStream_t s;
  cudaStreamCreate(&s);
  narrowSync(d, s);
  cudaDeviceSynchronize(); // errors of narrowSync's work surface here
  pipeline(d, s);
  cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost);
  cudaStream_t quiet;
  cudaStreamCreateWithFlags(&quiet, cudaStreamNonBlocking);
  pipelineNonBlocking(d, quiet);
  cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost);
  __builtin_printf("%g\n", h[0]);
  return 0;
}
