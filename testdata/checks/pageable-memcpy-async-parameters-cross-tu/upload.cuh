#pragma once
#include <cuda_runtime.h>

#include <cstddef>

// Defined in upload.cu and stage.cu, called from main.cu.
void upload(float *device, const float *host, size_t n, cudaStream_t stream);
void uploadPinned(float *device, const float *host, size_t n, cudaStream_t stream);
void uploadMixed(float *device, const float *host, size_t n, cudaStream_t stream);
void uploadRegistered(float *device, float *host, size_t n, cudaStream_t stream);
void uploadByPointer(float *device, const float *host, size_t n, cudaStream_t stream);
void uploadUncalled(float *device, const float *host, size_t n, cudaStream_t stream);
void download(float *host, const float *device, size_t n, cudaStream_t stream);
void pin(float *host, size_t n);
void uploadPinnedElsewhere(float *device, const float *host, size_t n, cudaStream_t stream);
void stage(float *device, const float *host, size_t n, cudaStream_t stream);

struct Uploader {
  cudaStream_t stream;
  void push(float *device, const float *host, size_t n);
};
