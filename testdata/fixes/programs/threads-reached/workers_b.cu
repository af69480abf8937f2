// B's threads, started in a file that defines no main.
#include <cuda_runtime.h>
#include <thread>

__global__ void bump(float *d) { d[threadIdx.x] += 1.0f; }

static void work(float *d) {
  bump<<<1, 64>>>(d);
  cudaDeviceSynchronize();
}

void runWorkers(float *d) {
  std::thread first(work, d), second(work, d);
  first.join();
  second.join();
}
