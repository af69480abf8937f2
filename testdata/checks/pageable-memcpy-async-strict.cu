// pageable-memcpy-async with Strict=true: unknown host memory becomes a note.
// CHECK-OPTION: pageable-memcpy-async.Strict=true
#include <cuda_runtime.h>

#include <cstdlib>

void externalUpload(float *device, const float *host, cudaStream_t stream) {
  cudaMemcpyAsync(device, host, 64, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async(note) {{cannot tell}}
}

void knownEnds(float *device, size_t n, cudaStream_t stream) {
  float *pageable = (float *)malloc(n);
  float *pinned = nullptr;
  cudaMallocHost((void **)&pinned, n);
  cudaMemcpyAsync(device, pageable, n, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async
  cudaMemcpyAsync(device, pinned, n, cudaMemcpyHostToDevice, stream);
  cudaMemcpyAsync(pinned, device, n, cudaMemcpyDeviceToHost, stream);
  cudaMemcpyAsync(device, device + 1, n, cudaMemcpyDeviceToDevice, stream);
  free(pageable);
}

void unknownKindBothEndsUnknown(void *a, void *b, size_t n, cudaMemcpyKind kind, cudaStream_t stream) {
  cudaMemcpyAsync(a, b, n, kind, stream); // CHECK: pageable-memcpy-async(note)
}

template <typename T> void templated(T *device, const T *host, cudaStream_t stream) {
  cudaMemcpyAsync(device, host, sizeof(T), cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async(note)
}
template void templated<float>(float *, const float *, cudaStream_t);

