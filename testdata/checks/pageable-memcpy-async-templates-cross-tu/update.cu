#include "device_vector.cuh"

void update(DeviceVector<int> &ints, cudaStream_t stream) {
  std::vector<int> more(64);
  ints.append(&more[0], more.size(), stream);
  int zero = 0;
  ints.setAt(1, zero, stream);
  std::vector<int> pageable(8);
  ints.appendMixed(pageable.data(), pageable.size(), stream);
}

// Another instantiation's callers count too.
void updateFloats(DeviceVector<float> &floats, cudaStream_t stream) {
  std::vector<float> values(16);
  floats.append(values.data(), values.size(), stream);
}
