#pragma once
// A device vector class template (as GPU libraries write them): its members
// copy from host pointers the callers pass, in other files.
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

template <typename T>
class DeviceVector {
public:
  explicit DeviceVector(size_t capacity) { cudaMalloc(&data_, capacity * sizeof(T)); }

  // Every caller passes std::vector storage (v.data(), &v[0]).
  void append(const T *d, size_t n, cudaStream_t stream) {
    cudaMemcpyAsync(data_ + size_, d, n * sizeof(T), cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{cudaMemcpyAsync from pageable host memory (std::vector 'keys' storage, std::vector 'more' storage or std::vector 'values' storage, passed by 'build' and 2 other callers)}} [[passed here by 'updateFloats']]
    size_ += n;
  }

  // A const reference to a std::vector: its storage is pageable whoever calls.
  void copyFrom(const std::vector<T> &v, cudaStream_t stream) {
    cudaMemcpyAsync(data_, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{from pageable host memory (std::vector 'v' storage)}}
    size_ = v.size();
  }

  // Iterator addresses into the vector are its storage too.
  void copyRange(const std::vector<T> &v, size_t first, cudaStream_t stream) {
    cudaMemcpyAsync(data_, &*(v.begin() + first), sizeof(T), cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{std::vector 'v' storage}}
  }

  // The caller's value is a stack local bound to the reference.
  void setAt(size_t i, const T &value, cudaStream_t stream) {
    cudaMemcpyAsync(data_ + i, &value, sizeof(T), cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{from pageable host memory (stack variable 'one' or stack variable 'zero', passed by 'build' and 'update')}}
  }

  // One caller passes pinned memory: not every call is staged.
  void appendMixed(const T *d, size_t n, cudaStream_t stream) {
    cudaMemcpyAsync(data_ + size_, d, n * sizeof(T), cudaMemcpyHostToDevice, stream);
  }

private:
  T *data_ = nullptr;
  size_t size_ = 0;
};

void build(DeviceVector<int> &ints, DeviceVector<float> &floats, cudaStream_t stream);
void update(DeviceVector<int> &ints, cudaStream_t stream);
