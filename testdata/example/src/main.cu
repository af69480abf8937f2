#include "pipeline.h"
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void fillKernel(float *data, int count, float value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    data[i] = value;
}

static void launchFill(float *data, int count, float value,
                       cudaStream_t stream = 0) {
  fillKernel<<<(count + 255) / 256, 256, 0, stream>>>(data, count, value);
}

static void processBatch(float *device, const float *input, float *output,
                         int count, cudaStream_t stream) {
  size_t bytes = count * sizeof(float);
  cudaMemcpyAsync(device, input, bytes, cudaMemcpyHostToDevice, stream);
  launchFill(device, count, 1.0f);
  launchScale(device, count, 2.0f, stream);
  cudaMemcpyAsync(output, device, bytes, cudaMemcpyDeviceToHost, stream);
  cudaDeviceSynchronize();
}

int main() {
  const int batches = 8;
  const int count = 1 << 20;
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);

  float *input = static_cast<float *>(std::malloc(count * sizeof(float)));
  float *output = nullptr;
  cudaMallocHost(&output, count * sizeof(float));
  for (int i = 0; i < count; ++i)
    input[i] = 1.0f;

  std::vector<int> batchIds(batches);
  for (int batch = 0; batch < batches; ++batch) {
    float *device = nullptr;
    cudaMalloc(&device, count * sizeof(float));
    processBatch(device, input, output, count, stream);
    batchIds[batch] = batch;
    cudaLaunchHostFunc(stream, reportProgress, &batchIds[batch]);
    cudaFree(device);
  }

  float *sum = nullptr;
  cudaMalloc(&sum, sizeof(float));
  fillKernel<<<1, 1>>>(sum, 1, 0.0f);
  launchSum(output, count, sum, stream);
  cudaStreamSynchronize(stream);

  float result = 0;
  // The result is needed right now: a blocking copy is intended here.
  cudaMemcpy(&result, sum, sizeof(float), cudaMemcpyDeviceToHost); // NOLINT(device-sync)
  std::printf("sum = %f\n", result);
  cudaFree(sum);
  cudaFreeHost(output);
  std::free(input);
  cudaStreamDestroy(stream);
  return 0;
}
