// Stand-in for CCCL's Thrust execution policies, with the real type names:
// thrust::device and thrust::cuda::par are thrust::cuda_cub::par_t, and
// .on(stream) gives thrust::cuda_cub::execute_on_stream.
#pragma once
#pragma clang system_header
#include <cuda_runtime.h>

namespace thrust {
namespace cuda_cub {
struct execute_on_stream { cudaStream_t stream; };
struct execute_on_stream_nosync { cudaStream_t stream; };
struct par_t {
  execute_on_stream on(cudaStream_t stream) const { return {stream}; }
};
struct par_nosync_t {
  execute_on_stream_nosync on(cudaStream_t stream) const { return {stream}; }
};
static const par_t par;
static const par_nosync_t par_nosync;
} // namespace cuda_cub
namespace cuda = cuda_cub;
namespace system { namespace cpp { namespace detail { struct par_t {}; } } }
static const cuda_cub::par_t device;
static const system::cpp::detail::par_t host;
} // namespace thrust
