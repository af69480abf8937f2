// library-default-stream: CUB's two-phase calls. The first call, with the
// temporary storage null, only writes the size it needs and enqueues nothing:
// whatever spells the null (nullptr, NULL, 0, a cast of one inside a macro, a
// variable null on every path to the call). The second call does the work.
// RUN-ARGS: -isystem /usr/local/cuda/include/cccl
#include <cub/cub.cuh>

// As GPU libraries wrap the query (a cast of NULL, not a null constant in C++).
#define GET_SUM_WS_SIZE(bytes, T, n) \
  cub::DeviceReduce::Sum((void *)NULL, *(bytes), (T *)NULL, (T *)NULL, n)

void macroQuery(size_t *bytes, int n) {
  GET_SUM_WS_SIZE(bytes, float, n);
}

void spellings(const int *in, int *out, int n) {
  size_t bytes = 0;
  cub::DeviceReduce::Sum(nullptr, bytes, in, out, n);
  cub::DeviceReduce::Sum(NULL, bytes, in, out, n);
  cub::DeviceReduce::Sum(0, bytes, in, out, n);
  cub::DeviceReduce::Sum((void *)0, bytes, in, out, n);
  cub::DeviceReduce::Sum(static_cast<void *>(nullptr), bytes, in, out, n);
  cub::DeviceReduce::Sum(reinterpret_cast<void *>(0), bytes, in, out, n);
}

void nullOnThePath(const int *in, int *out, int n, cudaStream_t stream) {
  void *temp = nullptr;
  size_t bytes = 0;
  cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n);
  cudaMalloc(&temp, bytes);
  cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n); // CHECK: library-default-stream {{cub::DeviceScan::ExclusiveSum runs on the legacy default stream (no stream given)}}
  cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n, stream);
  cudaFree(temp);
}

void nullAgain(const int *in, int *out, int n, void *scratch) {
  size_t bytes = 0;
  void *temp = scratch;
  temp = NULL;
  cub::DeviceReduce::Sum(temp, bytes, in, out, n);
}

// Null before the loop, a buffer from the second iteration on: work.
void loopReuses(const int *in, int *out, int n, void *buffer) {
  size_t bytes = 0;
  void *temp = nullptr;
  for (int i = 0; i < 4; ++i) {
    cub::DeviceReduce::Sum(temp, bytes, in, out, n); // CHECK: library-default-stream {{cub::DeviceReduce::Sum}}
    temp = buffer;
  }
}

// Null on one branch only: the call may do work.
void maybeNull(const int *in, int *out, int n, void *buffer, bool query) {
  size_t bytes = 0;
  void *temp = buffer;
  if (query)
    temp = nullptr;
  cub::DeviceReduce::Sum(temp, bytes, in, out, n); // CHECK: library-default-stream {{cub::DeviceReduce::Sum}}
}

// Every caller (all in this file) passes null.
static size_t sizeOf(void *temp, int n) {
  size_t bytes = 0;
  cub::DeviceReduce::Sum(temp, bytes, (const int *)nullptr, (int *)nullptr, n);
  return bytes;
}
size_t querySizes(int n) { return sizeOf(nullptr, n) + sizeOf(NULL, 2 * n); }

struct Increment {
  __device__ void operator()(int &x) const { ++x; }
};

// An algorithm without temporary storage runs its work on the call.
void forEach(int *data, int n) {
  cub::DeviceFor::ForEach(data, data + n, Increment{}); // CHECK: library-default-stream {{cub::DeviceFor::ForEach runs on the legacy default stream}}
}

// hipCUB (here as its CUDA backend declares it) mirrors CUB's classes.
namespace hipcub {
struct DeviceReduce {
  template <typename InputIteratorT, typename OutputIteratorT>
  static cudaError_t Max(void *d_temp_storage, size_t &temp_storage_bytes, InputIteratorT d_in,
                         OutputIteratorT d_out, int num_items, cudaStream_t stream = 0) {
    return cudaSuccess;
  }
};
} // namespace hipcub

void hip(const int *in, int *out, int n, void *temp) {
  size_t bytes = 0;
  hipcub::DeviceReduce::Max((void *)NULL, bytes, in, out, n);
  hipcub::DeviceReduce::Max(temp, bytes, in, out, n); // CHECK: library-default-stream {{hipcub::DeviceReduce::Max runs on the legacy default stream (no stream given)}}
}
