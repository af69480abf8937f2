// A second kernel file of the extension: a reduction with a staging copy.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <cuda_runtime.h>

namespace {

__global__ void row_sum_kernel(const float *input, float *output, int64_t rows, int64_t cols) {
  int64_t row = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (row >= rows)
    return;
  float sum = 0.0f;
  for (int64_t col = 0; col < cols; ++col)
    sum += input[row * cols + col];
  output[row] = sum;
}

} // namespace

torch::Tensor row_sum_cuda(torch::Tensor input) {
  TORCH_CHECK(input.is_cuda(), "expects a CUDA tensor");
  const at::cuda::OptionalCUDAGuard guard(device_of(input));
  auto output = torch::empty({input.size(0)}, input.options());
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  const int threads = 128;
  const int blocks = static_cast<int>((input.size(0) + threads - 1) / threads);
  row_sum_kernel<<<blocks, threads, 0, stream>>>(input.data_ptr<float>(),
                                                 output.data_ptr<float>(), input.size(0),
                                                 input.size(1));
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return output;
}

std::vector<float> row_sum_to_host(torch::Tensor input) {
  auto sums = row_sum_cuda(input);
  std::vector<float> host(static_cast<size_t>(sums.numel()));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  C10_CUDA_CHECK(cudaMemcpyAsync(host.data(), sums.data_ptr<float>(),
                                 host.size() * sizeof(float), cudaMemcpyDeviceToHost,
                                 stream));
  C10_CUDA_CHECK(cudaStreamSynchronize(stream));
  return host;
}
