// The callers of legacy.cu's functions; main creates a blocking stream and
// runs everything on this one host thread.
#include <cuda_runtime.h>

__global__ void bump(float *d) { d[0] += 1.0f; }

void copyLoop(float *d, const float *h, int n, int iterations);
void afterStream(float *d);
void rounds(float *d, int n, int m);
void roundsBreak(float *d, int n, int m);
void checkedCopies(float *d, float *h, int n, int iterations);
void clearLoop(float *d, int n, int iterations);

// Each iteration waits for its own non-blocking stream: nothing of it is
// pending when it returns, so clearLoop's wait after it narrows.
void streamRounds(float *d, int n) {
  cudaStream_t own;
  cudaStreamCreateWithFlags(&own, cudaStreamNonBlocking);
  for (int i = 0; i < n; ++i) {
    bump<<<1, 1, 0, own>>>(d);
    cudaStreamSynchronize(own);
  }
  cudaStreamDestroy(own);
}

int main() {
  float *d, h[64] = {};
  cudaMalloc(&d, 256);
  cudaStream_t s;
  cudaStreamCreate(&s);
  copyLoop(d, h, 256, 4);
  rounds(d, 2, 3);
  rounds(d, 2, 3);
  roundsBreak(d, 2, 3);
  roundsBreak(d, 2, 3);
  checkedCopies(d, h, 256, 2);
  streamRounds(d, 2);
  clearLoop(d, 256, 2);
  for (int i = 0; i < 2; ++i) {
    bump<<<1, 1, 0, s>>>(d);
    afterStream(d);
  }
  cudaStreamDestroy(s);
  cudaFree(d);
  return 0;
}
