// library-default-stream: Thrust algorithms without a stream policy in a
// function that orders its other work on a created stream.
// The real environment needs CCCL on the include path (nvcc adds it implicitly).
// RUN-ARGS: -isystem /usr/local/cuda/include/cccl
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <vector>

__global__ void kernel(int *data) {}

struct Twice {
  __host__ __device__ void operator()(int &x) const { x *= 2; }
};

void mixed(thrust::device_vector<int> &v, int *raw, cudaStream_t stream) {
  kernel<<<1, 32, 0, stream>>>(raw);
  thrust::sort(v.begin(), v.end());                          // CHECK: library-default-stream {{thrust::sort without an execution policy runs on the legacy default stream while this function orders its other work on a created stream}}
  thrust::for_each(thrust::device, v.begin(), v.end(), Twice()); // CHECK: library-default-stream {{thrust::for_each with a policy without a stream}}
  thrust::fill(thrust::cuda::par, v.begin(), v.end(), 0);   // CHECK: library-default-stream
  thrust::fill(thrust::cuda::par.on(stream), v.begin(), v.end(), 0);
  thrust::for_each(thrust::cuda::par_nosync.on(stream), v.begin(), v.end(), Twice());
  int sum = thrust::reduce(thrust::cuda::par.on(stream), v.begin(), v.end());
  (void)sum;
}

// No created stream in sight: Thrust's default stream is what the code uses.
void alone(thrust::device_vector<int> &v) {
  thrust::sort(v.begin(), v.end());
  thrust::sort(thrust::device, v.begin(), v.end());
}

// Host iterators and host policies run on the host.
void host(std::vector<int> &h, int *raw, int n, cudaStream_t stream) {
  kernel<<<1, 32, 0, stream>>>(raw);
  thrust::sort(h.begin(), h.end());
  thrust::sort(raw, raw + n);
  thrust::sort(thrust::host, h.begin(), h.end());
}
