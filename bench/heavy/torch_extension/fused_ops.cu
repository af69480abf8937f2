// A PyTorch C++/CUDA extension kernel file, written the way extensions are:
// torch/extension.h, the current CUDA stream from ATen, cuBLAS on that stream.
#include <torch/extension.h>
#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAGuard.h>
#include <cublas_v2.h>
#include <cuda_runtime.h>

namespace {

__global__ void scale_bias_kernel(const float *input, const float *bias, float *output,
                                  float scale, int64_t rows, int64_t cols) {
  int64_t index = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (index < rows * cols)
    output[index] = input[index] * scale + bias[index % cols];
}

void check_cublas(cublasStatus_t status) {
  TORCH_CHECK(status == CUBLAS_STATUS_SUCCESS, "cuBLAS failed: ", static_cast<int>(status));
}

} // namespace

torch::Tensor scale_bias_cuda(torch::Tensor input, torch::Tensor bias, double scale) {
  TORCH_CHECK(input.is_cuda() && bias.is_cuda(), "expects CUDA tensors");
  const at::cuda::OptionalCUDAGuard guard(device_of(input));
  auto output = torch::empty_like(input);
  const int64_t rows = input.size(0), cols = input.size(1);
  const int threads = 256;
  const int blocks = static_cast<int>((rows * cols + threads - 1) / threads);
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  scale_bias_kernel<<<blocks, threads, 0, stream>>>(
      input.data_ptr<float>(), bias.data_ptr<float>(), output.data_ptr<float>(),
      static_cast<float>(scale), rows, cols);
  C10_CUDA_KERNEL_LAUNCH_CHECK();
  return output;
}

torch::Tensor gemm_cuda(torch::Tensor a, torch::Tensor b) {
  const at::cuda::OptionalCUDAGuard guard(device_of(a));
  auto c = torch::empty({a.size(0), b.size(1)}, a.options());
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  check_cublas(cublasSetStream(handle, at::cuda::getCurrentCUDAStream()));
  const float alpha = 1.0f, beta = 0.0f;
  check_cublas(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(b.size(1)),
                           static_cast<int>(a.size(0)), static_cast<int>(a.size(1)), &alpha,
                           b.data_ptr<float>(), static_cast<int>(b.size(1)),
                           a.data_ptr<float>(), static_cast<int>(a.size(1)), &beta,
                           c.data_ptr<float>(), static_cast<int>(c.size(1))));
  return c;
}

// Launched on the legacy default stream, not the current stream: the bug
// this kind of extension ships most often (one finding expected here).
torch::Tensor scale_bias_default_stream(torch::Tensor input, torch::Tensor bias) {
  auto output = torch::empty_like(input);
  const int64_t rows = input.size(0), cols = input.size(1);
  scale_bias_kernel<<<static_cast<int>((rows * cols + 255) / 256), 256>>>(
      input.data_ptr<float>(), bias.data_ptr<float>(), output.data_ptr<float>(), 1.0f, rows,
      cols);
  return output;
}
