// Not in a loop here, but main.cu calls it from one: a warning.
#include <cuda_runtime.h>

#include "solver.cuh"

void solveStep(float *d) {
  cudaDeviceSynchronize(); // CHECK: device-sync {{called from the loop at main.cu:7 through solveStep}}
}

void finish() {
  cudaDeviceSynchronize(); // CHECK: device-sync(note)
}
