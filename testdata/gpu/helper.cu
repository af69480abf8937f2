// Memory whose kind the static analyzer cannot see from misuse.cu.
#include <cstdlib>
#include <cstring>

float *opaqueHostBuffer(size_t bytes) {
  void *p = std::malloc(bytes);
  std::memset(p, 0, bytes);
  return static_cast<float *>(p);
}
