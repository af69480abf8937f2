// A row-wise softmax; this file includes ATen's headers before torch's.
#include <ATen/ATen.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <torch/extension.h>

namespace {

template <typename scalar_t>
__global__ void softmax_kernel(const scalar_t *input, scalar_t *output, int64_t rows,
                               int64_t cols) {
  int64_t row = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (row >= rows)
    return;
  const scalar_t *in = input + row * cols;
  float largest = -INFINITY, sum = 0.0f;
  for (int64_t col = 0; col < cols; ++col)
    largest = fmaxf(largest, static_cast<float>(in[col]));
  for (int64_t col = 0; col < cols; ++col)
    sum += expf(static_cast<float>(in[col]) - largest);
  for (int64_t col = 0; col < cols; ++col)
    output[row * cols + col] = static_cast<scalar_t>(expf(static_cast<float>(in[col]) - largest) / sum);
}

} // namespace

at::Tensor softmax_cuda(const at::Tensor &input) {
  TORCH_CHECK(input.is_cuda() && input.dim() == 2, "expects a CUDA matrix");
  const at::cuda::OptionalCUDAGuard guard(device_of(input));
  auto output = at::empty_like(input);
  const int64_t rows = input.size(0), cols = input.size(1);
  const int threads = 128;
  const int blocks = static_cast<int>((rows + threads - 1) / threads);
  auto stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "softmax_cuda", [&] {
    softmax_kernel<scalar_t><<<blocks, threads, 0, stream.stream()>>>(
        input.data_ptr<scalar_t>(), output.data_ptr<scalar_t>(), rows, cols);
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return output;
}
