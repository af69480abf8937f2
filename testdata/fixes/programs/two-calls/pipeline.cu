// The middle of the chain: passes its stream parameter on.
#include <cuda_runtime.h>

void stage(float *d, cudaStream_t stream);
void stageNonBlocking(float *d, cudaStream_t stream);

void pipeline(float *d, cudaStream_t s) {
  stage(d, s);
}

void pipelineNonBlocking(float *d, cudaStream_t s) {
  stageNonBlocking(d, s);
}
