#include <cstdlib>
#include <vector>

#include "upload.cuh"

int main() {
  size_t n = 1 << 20;
  float *device = nullptr;
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaMalloc(&device, n * sizeof(float));
  float *host = static_cast<float *>(malloc(n * sizeof(float)));
  float *pinned = nullptr;
  cudaMallocHost(&pinned, n * sizeof(float));

  upload(device, host, n, stream);
  stage(device, host, n, stream);
  uploadPinned(device, pinned, n, stream);
  uploadMixed(device, pinned, n, stream);
  uploadMixed(device, host, n, stream);
  float *registered = static_cast<float *>(malloc(n * sizeof(float)));
  uploadRegistered(device, registered, n, stream);
  void (*through)(float *, const float *, size_t, cudaStream_t) = uploadByPointer;
  through(device, host, n, stream);
  uploadByPointer(device, host, n, stream);

  float *pinnedLater = static_cast<float *>(malloc(n * sizeof(float)));
  pin(pinnedLater, n);
  uploadPinnedElsewhere(device, pinnedLater, n, stream);

  float results[256];
  download(results, device, 256, stream);

  std::vector<float> staging(n);
  Uploader uploader{stream};
  uploader.push(device, staging.data(), n);

  cudaStreamSynchronize(stream);
  cudaFreeHost(pinned);
  free(host);
  return 0;
}
