// An SGD step with momentum over a list of parameters, one launch per
// tensor on the current stream, as optimizer extensions loop over them.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <vector>

namespace {

template <typename scalar_t>
__global__ void sgd_momentum_kernel(scalar_t *param, const scalar_t *grad,
                                    scalar_t *momentum, float lr, float mu, int64_t n) {
  int64_t index = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (index >= n)
    return;
  float velocity = mu * static_cast<float>(momentum[index]) + static_cast<float>(grad[index]);
  momentum[index] = static_cast<scalar_t>(velocity);
  param[index] = static_cast<scalar_t>(static_cast<float>(param[index]) - lr * velocity);
}

} // namespace

void sgd_step_cuda(std::vector<torch::Tensor> params, std::vector<torch::Tensor> grads,
                   std::vector<torch::Tensor> momenta, double lr, double mu) {
  TORCH_CHECK(params.size() == grads.size() && params.size() == momenta.size(),
              "one gradient and one momentum per parameter");
  if (params.empty())
    return;
  const at::cuda::OptionalCUDAGuard guard(device_of(params.front()));
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  for (size_t i = 0; i < params.size(); ++i) {
    const int64_t n = params[i].numel();
    const int threads = 512;
    const int blocks = static_cast<int>((n + threads - 1) / threads);
    AT_DISPATCH_FLOATING_TYPES_AND_HALF(params[i].scalar_type(), "sgd_step_cuda", [&] {
      sgd_momentum_kernel<scalar_t><<<blocks, threads, 0, stream>>>(
          params[i].data_ptr<scalar_t>(), grads[i].data_ptr<scalar_t>(),
          momenta[i].data_ptr<scalar_t>(), static_cast<float>(lr), static_cast<float>(mu), n);
    });
    C10_CUDA_KERNEL_LAUNCH_CHECK();
  }
}
