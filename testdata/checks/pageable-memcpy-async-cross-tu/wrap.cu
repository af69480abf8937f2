// A wrapper around another TU's wrapper: its summary forwards to mallocChecked.
#include "alloc.cuh"

float *floatsAcross(size_t n) {
  float *p = static_cast<float *>(mallocChecked(n * sizeof(float)));
  return p;
}
