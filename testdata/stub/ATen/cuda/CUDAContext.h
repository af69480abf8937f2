// Stand-in for PyTorch's ATen/cuda/CUDAContext.h.
#pragma once
#pragma clang system_header
#include <c10/cuda/CUDAStream.h>

namespace at {
namespace cuda {
using c10::cuda::CUDAStream;
using c10::cuda::getCurrentCUDAStream;
} // namespace cuda
} // namespace at
