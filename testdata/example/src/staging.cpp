// Host-side staging buffers (compiled by the host compiler, not nvcc).
#include "pipeline.h"
#include <cstdlib>

float *makeStagingBuffer(size_t count) {
  return static_cast<float *>(std::malloc(count * sizeof(float)));
}

void releaseStagingBuffer(float *buffer) { std::free(buffer); }
