// Stand-in for PyTorch's c10/cuda/CUDAStream.h: the current stream.
#pragma once
#pragma clang system_header
#include <cuda_runtime.h>

namespace c10 {
namespace cuda {
class CUDAStream {
public:
  cudaStream_t stream() const { return stream_; }
  operator cudaStream_t() const { return stream_; }
private:
  cudaStream_t stream_ = nullptr;
};
CUDAStream getCurrentCUDAStream(signed char device_index = -1);
} // namespace cuda
} // namespace c10
