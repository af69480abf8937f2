// default-stream: cudaLaunchKernelEx/ExC with a launch config whose stream
// is visibly 0 or cudaStreamLegacy.
#include <cuda_runtime.h>

__global__ void kernel(float *data) {}

void configure(cudaLaunchConfig_t *config);

void configs(float *d, cudaStream_t s) {
  cudaLaunchConfig_t zeroed = {};
  zeroed.gridDim = 1;
  zeroed.blockDim = 32;
  cudaLaunchKernelEx(&zeroed, kernel, d);                   // CHECK: default-stream {{launch config's stream is 0}}

  cudaLaunchConfig_t positional = {1, 32, 0, 0, nullptr, 0};
  cudaLaunchKernelEx(&positional, kernel, d);               // CHECK: default-stream

  cudaLaunchConfig_t legacy = {};
  legacy.stream = cudaStreamLegacy;
  void *args[] = {&d};
  cudaLaunchKernelExC(&legacy, (const void *)kernel, args); // CHECK: default-stream {{cudaStreamLegacy}}

  cudaLaunchConfig_t onStream = {};
  onStream.stream = s;
  cudaLaunchKernelEx(&onStream, kernel, d);

  cudaLaunchConfig_t positionalStream = {1, 32, 0, s, nullptr, 0};
  cudaLaunchKernelEx(&positionalStream, kernel, d);

  cudaLaunchConfig_t perThread = {};
  perThread.stream = cudaStreamPerThread;
  cudaLaunchKernelEx(&perThread, kernel, d);

  // Filled elsewhere: not visible.
  cudaLaunchConfig_t filled = {};
  configure(&filled);
  cudaLaunchKernelEx(&filled, kernel, d);

  cudaLaunchConfig_t uninitialized;
  uninitialized.gridDim = 1;
  cudaLaunchKernelEx(&uninitialized, kernel, d);
}

void fromPointer(const cudaLaunchConfig_t *config, float *d) {
  cudaLaunchKernelEx(config, kernel, d);
}
