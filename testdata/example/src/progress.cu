#include "pipeline.h"
#include <cstdio>

// Runs on the driver's callback thread once a batch has finished.
void CUDART_CB reportProgress(void *userData) {
  int batch = *static_cast<int *>(userData);
  size_t freeBytes = 0, totalBytes = 0;
  cudaMemGetInfo(&freeBytes, &totalBytes);
  std::printf("batch %d done, %zu MiB free\n", batch, freeBytes >> 20);
}
