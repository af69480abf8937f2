#include "device_vector.cuh"

#include <array>

void build(DeviceVector<int> &ints, DeviceVector<float> &floats, cudaStream_t stream) {
  std::vector<int> keys(1024);
  ints.append(keys.data(), keys.size(), stream);
  ints.copyFrom(keys, stream);
  ints.copyRange(keys, 3, stream);
  int one = 1;
  ints.setAt(0, one, stream);
  float *pinned = nullptr;
  cudaMallocHost(&pinned, 256 * sizeof(float));
  floats.appendMixed(pinned, 256, stream);
}
