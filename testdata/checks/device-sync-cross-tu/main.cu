#include <cuda_runtime.h>

#include "solver.cuh"

int main() {
  float *d = nullptr;
  for (int i = 0; i < 10; ++i) {
    solveStep(d);
    checkpoint();
  }
  finish();
  return 0;
}
