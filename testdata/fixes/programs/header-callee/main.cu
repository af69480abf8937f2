// The caller: a non-blocking stream reaches stage(); all main does after it
// is a call of lib.h's libDrain, which waits for the device first.
#include "lib.h"

void stage(float *d, cudaStream_t stream);

int main() {
  float *d;
  cudaMalloc(&d, 256);
  cudaStream_t quiet;
  cudaStreamCreateWithFlags(&quiet, cudaStreamNonBlocking);
  stage(d, quiet);
  libDrain();
  return 0;
}
