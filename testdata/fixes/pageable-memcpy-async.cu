// Fix-its of pageable-memcpy-async: buffers allocated and freed in one
// function become cudaMallocHost/cudaFreeHost.
#include <cuda_runtime.h>

#include <cstdlib>

void declared(float *device, size_t n, cudaStream_t stream) {
  float *host = (float *)malloc(n * sizeof(float));
  cudaMemcpyAsync(device, host, n * sizeof(float), cudaMemcpyHostToDevice, stream);
  cudaMemcpyAsync(host, device, n * sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  free(host);
}

void assigned(float *device, size_t n, bool early, cudaStream_t stream) {
  float *host;
  host = static_cast<float *>(malloc(n));
  cudaMemcpyAsync(device, host, n, cudaMemcpyHostToDevice, stream);
  if (early) {
    free(host);
    return;
  }
  cudaStreamSynchronize(stream);
  free(host);
}

void arrayNew(int *device, int count, cudaStream_t stream) {
  int *host = new int[count + 1];
  cudaMemcpyAsync(host, device, count * sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  delete[] host;
}

// Not fixable: the buffer leaves the function, is zeroed by calloc, or is
// never freed here.
float *returned(float *device, size_t n, cudaStream_t stream) {
  float *host = (float *)malloc(n);
  cudaMemcpyAsync(host, device, n, cudaMemcpyDeviceToHost, stream);
  return host;
}

void zeroed(float *device, size_t n, cudaStream_t stream) {
  float *host = (float *)calloc(n, sizeof(float));
  cudaMemcpyAsync(device, host, n, cudaMemcpyHostToDevice, stream);
  free(host);
}

void leaked(float *device, size_t n, cudaStream_t stream) {
  float *host = (float *)malloc(n);
  cudaMemcpyAsync(device, host, n, cudaMemcpyHostToDevice, stream);
}
