// Program A of two in one compile database: app_a.cu with step_a.cu and
// shared.cu; program B is app_b.cu with workers_b.cu and shared.cu. B
// starts host threads in workers_b.cu, a file that defines no main: only
// B's main calls the function that starts them, so they are in B's
// program, not A's (ProgramOrdering::programsRunning).
#include <cuda_runtime.h>

void stepA(float *d, float *h, int n);
void stepShared(float *d, float *h, int n);

int main() {
  float *d, h[64];
  cudaMalloc(&d, 256);
  cudaStream_t s;
  cudaStreamCreate(&s);
  for (int i = 0; i < 10; ++i) {
    stepA(d, h, 256);
    stepShared(d, h, 256);
  }
  cudaStreamDestroy(s);
  cudaFree(d);
  return 0;
}
