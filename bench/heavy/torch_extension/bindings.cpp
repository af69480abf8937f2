// The extension's Python bindings, compiled by the host compiler.
#include <torch/extension.h>

torch::Tensor scale_bias_cuda(torch::Tensor input, torch::Tensor bias, double scale);
torch::Tensor gemm_cuda(torch::Tensor a, torch::Tensor b);
torch::Tensor row_sum_cuda(torch::Tensor input);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("scale_bias", &scale_bias_cuda, "input * scale + bias (CUDA)");
  m.def("gemm", &gemm_cuda, "a @ b with cuBLAS");
  m.def("row_sum", &row_sum_cuda, "sum of each row (CUDA)");
}
