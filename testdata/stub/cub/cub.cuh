// Stand-in for CCCL's cub/cub.cuh: device-wide algorithms whose trailing
// stream defaults to 0, as in CCCL 3.
#pragma once
#pragma clang system_header
#include <cuda_runtime.h>

namespace cub {
struct DeviceReduce {
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t Sum(void *d_temp_storage, size_t &temp_storage_bytes,
                         InputIteratorT d_in, OutputIteratorT d_out, NumItemsT num_items,
                         cudaStream_t stream = 0);
};
struct DeviceRadixSort {
  template <typename KeyT, typename NumItemsT>
  static cudaError_t SortKeys(void *d_temp_storage, size_t &temp_storage_bytes,
                              const KeyT *d_keys_in, KeyT *d_keys_out, NumItemsT num_items,
                              int begin_bit = 0, int end_bit = sizeof(KeyT) * 8,
                              cudaStream_t stream = 0);
};
struct DeviceScan {
  template <typename InputIteratorT, typename OutputIteratorT, typename NumItemsT>
  static cudaError_t ExclusiveSum(void *d_temp_storage, size_t &temp_storage_bytes,
                                  InputIteratorT d_in, OutputIteratorT d_out,
                                  NumItemsT num_items, cudaStream_t stream = 0);
};
struct DeviceFor {
  // No temporary storage: the work runs on the call.
  template <typename RandomAccessIteratorT, typename OpT>
  static cudaError_t ForEach(RandomAccessIteratorT first, RandomAccessIteratorT last,
                             OpT op, cudaStream_t stream = {});
};
} // namespace cub
