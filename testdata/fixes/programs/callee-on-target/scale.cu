// scale issues its work on its stream parameter only; scaleMixed also on
// the legacy stream, which relied on the legacy stream's order.
#include <cuda_runtime.h>

__global__ void twice(float *d) { d[threadIdx.x] *= 2.0f; }

void scale(float *d, cudaStream_t stream) { twice<<<1, 64, 0, stream>>>(d); }

void scaleMixed(float *d, cudaStream_t stream) {
  twice<<<1, 64, 0, stream>>>(d);
  twice<<<1, 64, 0, 0>>>(d); // NOLINT(default-stream)
}

// Launches on its parameter, but the parameter is overwritten first: the
// work is not on the stream the caller passed.
void scaleReassigned(float *d, cudaStream_t stream) {
  stream = 0;
  twice<<<1, 64, 0, stream>>>(d);
}
