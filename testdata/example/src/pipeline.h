// Batch pipeline: scale and sum batches of samples on the GPU.
#pragma once
#include <cuda_runtime.h>
#include <cstddef>

void launchScale(float *data, int count, float factor, cudaStream_t stream = 0);
void launchSum(const float *data, int count, float *result, cudaStream_t stream);
void CUDART_CB reportProgress(void *userData);
float *makeStagingBuffer(size_t count);
void releaseStagingBuffer(float *buffer);
