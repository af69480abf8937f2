// An elementwise activation for every floating dtype, as extensions
// dispatch them: one kernel template instantiated per type.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <cmath>

namespace {

template <typename scalar_t>
__global__ void gelu_kernel(const scalar_t *input, scalar_t *output, int64_t n) {
  int64_t index = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (index >= n)
    return;
  float x = static_cast<float>(input[index]);
  output[index] = static_cast<scalar_t>(0.5f * x * (1.0f + erff(x * 0.70710678f)));
}

} // namespace

torch::Tensor gelu_cuda(torch::Tensor input) {
  TORCH_CHECK(input.is_cuda(), "expects a CUDA tensor");
  const at::cuda::OptionalCUDAGuard guard(device_of(input));
  auto contiguous = input.contiguous();
  auto output = torch::empty_like(contiguous);
  const int64_t n = contiguous.numel();
  const int threads = 256;
  const int blocks = static_cast<int>((n + threads - 1) / threads);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  AT_DISPATCH_FLOATING_TYPES_AND2(at::ScalarType::Half, at::ScalarType::BFloat16,
                                  contiguous.scalar_type(), "gelu_cuda", [&] {
                                    gelu_kernel<scalar_t><<<blocks, threads, 0, stream>>>(
                                        contiguous.data_ptr<scalar_t>(),
                                        output.data_ptr<scalar_t>(), n);
                                  });
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return output;
}
