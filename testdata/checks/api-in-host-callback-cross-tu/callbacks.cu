// The callback is defined here; it is registered in enqueue.cu.
#include <cuda_runtime.h>

static void refill(void *buffer) {
  cudaMemset(buffer, 0, 64); // CHECK: api-in-host-callback {{registered with cudaLaunchHostFunc at enqueue.cu:8 through refill}}
}

void CUDART_CB onBatchDone(void *buffer) { refill(buffer); }

// Never registered anywhere: its CUDA calls are fine.
void CUDART_CB unused(void *buffer) { cudaFree(buffer); }
