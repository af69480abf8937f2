// device-sync narrows cudaDeviceSynchronize() to the several streams its
// pending work is on (work.cu); main calls each function in a loop with
// nothing pending, and creates streams.
#include <cuda_runtime.h>

void twoStreams(float *d);
void arrayAndRest(float *d, int n);
void pipelined(float *d, int *counter, int passes);
void reassigned(float *d);
void destroyedBetween(float *d);
void unknownPending(float *d);
void notVisible(float *d);
cudaError_t copyBack(float *h, const float *d);
void timedStreams(float *h, cudaStream_t *streams, int n);
void assignedElsewhere(float *h, const float *d, cudaError_t *codes, int *raw);

int main() {
  float *d, h[4];
  int counter = 0;
  cudaMalloc(&d, 64 * sizeof(float));
  cudaStream_t fan[2];
  cudaStreamCreate(&fan[0]);
  cudaStreamCreate(&fan[1]);
  for (int i = 0; i < 4; ++i) {
    twoStreams(d);
    arrayAndRest(d, 7);
    pipelined(d, &counter, 3);
    // Every call before it returns with nothing pending ('hostOnly' does no
    // CUDA work): narrowed to cudaStreamPerThread.
    cudaDeviceSynchronize(); // applied
    reassigned(d);
    destroyedBetween(d);
    unknownPending(d);
    notVisible(d);
    if (copyBack(h, d) != cudaSuccess)
      return 1;
    timedStreams(h, fan, 2);
    cudaError_t codes[1];
    int raw = 0;
    assignedElsewhere(h, d, codes, &raw);
  }
  cudaFree(d);
  return 0;
}
