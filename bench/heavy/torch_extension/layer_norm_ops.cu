// A row-wise layer norm accumulating in a wider type (ATen's acc_type).
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <ATen/AccumulateType.h>
#include <c10/cuda/CUDAGuard.h>

namespace {

template <typename scalar_t, typename acc_t>
__global__ void layer_norm_kernel(const scalar_t *input, const scalar_t *gamma,
                                  const scalar_t *beta, scalar_t *output, int64_t rows,
                                  int64_t cols, acc_t epsilon) {
  int64_t row = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (row >= rows)
    return;
  const scalar_t *in = input + row * cols;
  acc_t mean = 0, square = 0;
  for (int64_t col = 0; col < cols; ++col) {
    acc_t value = static_cast<acc_t>(in[col]);
    mean += value;
    square += value * value;
  }
  mean /= cols;
  acc_t inverse = rsqrt(square / cols - mean * mean + epsilon);
  for (int64_t col = 0; col < cols; ++col)
    output[row * cols + col] = static_cast<scalar_t>(
        (static_cast<acc_t>(in[col]) - mean) * inverse * static_cast<acc_t>(gamma[col]) +
        static_cast<acc_t>(beta[col]));
}

} // namespace

torch::Tensor layer_norm_cuda(torch::Tensor input, torch::Tensor gamma, torch::Tensor beta,
                              double epsilon) {
  TORCH_CHECK(input.dim() == 2, "expects rows of features");
  const at::cuda::OptionalCUDAGuard guard(device_of(input));
  auto output = torch::empty_like(input);
  const int64_t rows = input.size(0), cols = input.size(1);
  const int threads = 128;
  const int blocks = static_cast<int>((rows + threads - 1) / threads);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND_HALF(input.scalar_type(), "layer_norm_cuda", [&] {
    using acc_t = at::acc_type<scalar_t, true>;
    layer_norm_kernel<scalar_t, acc_t><<<blocks, threads, 0, stream>>>(
        input.data_ptr<scalar_t>(), gamma.data_ptr<scalar_t>(), beta.data_ptr<scalar_t>(),
        output.data_ptr<scalar_t>(), rows, cols, static_cast<acc_t>(epsilon));
  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return output;
}
