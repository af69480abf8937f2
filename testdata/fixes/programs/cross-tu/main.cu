// The callers of runStep, runAfterOther and the others, in another file.
#include <cuda_runtime.h>

void runStep(float *d, cudaStream_t s);
void runAfterOther(float *d, cudaStream_t s);
void runThroughPointer(float *d, cudaStream_t s);
void runOnZero(float *d, cudaStream_t s);
extern "C" void runFromC(float *d, cudaStream_t s);
void runExported(float *d, cudaStream_t s);
struct Worker {
  virtual void work(float *d, cudaStream_t s);
};

__global__ void other(float *d) { d[threadIdx.x] *= 2.0f; }

int main() {
  float *d, h[64];
  cudaMalloc(&d, 256);
  cudaStream_t s;
  cudaStreamCreate(&s);
  runStep(d, s); // nothing pending before it
  cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost); // legacy stream, after it
  cudaStream_t side;
  cudaStreamCreate(&side);
  other<<<1, 64, 0, side>>>(d); // pending on another blocking stream
  runAfterOther(d, s);
  cudaDeviceSynchronize();
  void (*hook)(float *, cudaStream_t) = runThroughPointer;
  hook(d, s);
  Worker worker;
  worker.work(d, s);
  cudaDeviceSynchronize();
  runOnZero(d, 0);
  cudaDeviceSynchronize();
  runExported(d, s);
  cudaDeviceSynchronize();
  runFromC(d, s);
  cudaDeviceSynchronize();
  __builtin_printf("%g\n", h[0]);
  return 0;
}
