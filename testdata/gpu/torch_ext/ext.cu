// A PyTorch C++/CUDA extension built by torch.utils.cpp_extension.load
// (issue 27), run from Python (run.py, test_ext.py, procs.py) on a
// non-default torch.cuda.Stream. `// LIBRARY: <status>` is the run-time
// status library-default-stream's finding must get; `// IN-LIBRARY: <call>`
// lines get the run-time observations made inside that library call, named
// after it (torch_evidence.sh checks both).
#include <ATen/cuda/CUDAContext.h>
#include <cublas_v2.h>
#include <torch/extension.h>

__global__ void scale_kernel(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

void scale_default(torch::Tensor x) {
  int n = x.numel();
  scale_kernel<<<(n + 255) / 256, 256>>>(x.data_ptr<float>(), 2.0f, n); // LIBRARY: confirmed
}

void scale_current(torch::Tensor x) {
  int n = x.numel();
  cudaStream_t stream = at::cuda::getCurrentCUDAStream();
  scale_kernel<<<(n + 255) / 256, 256, 0, stream>>>(x.data_ptr<float>(), 2.0f, n);
}

void copy_default(torch::Tensor dst, torch::Tensor src) {
  cudaMemcpyAsync(dst.data_ptr<float>(), src.data_ptr<float>(), src.numel() * sizeof(float), // LIBRARY: confirmed
                  cudaMemcpyDeviceToDevice);
}

// A handle per call, never bound to PyTorch's stream.
torch::Tensor gemm_new_handle(torch::Tensor a, torch::Tensor b) {
  int n = a.size(0);
  torch::Tensor c = torch::empty({n, n}, a.options());
  cublasHandle_t handle;
  cublasCreate(&handle); // LIBRARY: confirmed IN-LIBRARY: cublasCreate
  float one = 1.0f, zero = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a.data_ptr<float>(), n,
              b.data_ptr<float>(), n, &zero, c.data_ptr<float>(), n);
  cublasDestroy(handle); // IN-LIBRARY: cublasDestroy
  return c;
}

// The same with the handle on PyTorch's current stream.
torch::Tensor gemm_on_stream(torch::Tensor a, torch::Tensor b) {
  int n = a.size(0);
  torch::Tensor c = torch::empty({n, n}, a.options());
  cublasHandle_t handle = at::cuda::getCurrentCUDABlasHandle();
  cublasSetStream(handle, at::cuda::getCurrentCUDAStream());
  float one = 1.0f, zero = 0.0f;
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a.data_ptr<float>(), n,
              b.data_ptr<float>(), n, &zero, c.data_ptr<float>(), n);
  return c;
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("scale_default", &scale_default);
  m.def("scale_current", &scale_current);
  m.def("copy_default", &copy_default);
  m.def("gemm_new_handle", &gemm_new_handle);
  m.def("gemm_on_stream", &gemm_on_stream);
}
