// The extension's Python bindings, compiled by the host compiler.
#include <torch/extension.h>

#include <vector>

torch::Tensor scale_bias_cuda(torch::Tensor input, torch::Tensor bias, double scale);
torch::Tensor gemm_cuda(torch::Tensor a, torch::Tensor b);
torch::Tensor row_sum_cuda(torch::Tensor input);
torch::Tensor gelu_cuda(torch::Tensor input);
torch::Tensor layer_norm_cuda(torch::Tensor input, torch::Tensor gamma, torch::Tensor beta,
                              double epsilon);
void sgd_step_cuda(std::vector<torch::Tensor> params, std::vector<torch::Tensor> grads,
                   std::vector<torch::Tensor> momenta, double lr, double mu);
at::Tensor softmax_cuda(const at::Tensor &input);

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
  m.def("scale_bias", &scale_bias_cuda, "input * scale + bias (CUDA)");
  m.def("gemm", &gemm_cuda, "a @ b with cuBLAS");
  m.def("row_sum", &row_sum_cuda, "sum of each row (CUDA)");
  m.def("gelu", &gelu_cuda, "GELU of each element (CUDA)");
  m.def("layer_norm", &layer_norm_cuda, "layer norm of each row (CUDA)");
  m.def("sgd_step", &sgd_step_cuda, "SGD with momentum over a list of parameters (CUDA)");
  m.def("softmax", &softmax_cuda, "softmax of each row (CUDA)");
}
