// Passes its own parameter on: what main passes to stage decides upload's copy.
#include "upload.cuh"

void stage(float *device, const float *host, size_t n, cudaStream_t stream) {
  upload(device, host, n, stream);
}

// Pins what it receives: main's buffer passed here is registered, so a copy
// of it elsewhere is not called pageable.
void pin(float *host, size_t n) {
  cudaHostRegister(host, n * sizeof(float), cudaHostRegisterDefault);
}
