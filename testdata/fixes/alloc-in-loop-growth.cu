// alloc-in-loop's reuse-with-growth: the size changes every iteration, so the
// buffer is reallocated only when a larger one is needed; it keeps its
// capacity and is freed once after the loop.
// "// applied" / "// not applied: <reason>" are checked by
// tests/checks/OrderingFixTest.cpp; the edits by FixGoldenTest.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                     \
  do {                                                                  \
    cudaError_t status = (call);                                        \
    if (status != cudaSuccess) {                                        \
      fprintf(stderr, "%s\n", cudaGetErrorString(status));              \
      exit(1);                                                          \
    }                                                                   \
  } while (0)

__global__ void fill(float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d[i] = float(i);
}

// A template (HeCBench storeKVCache): 'k' has a type of its own, 'indices'
// depends on T, so the template's pattern sees only k's cudaMalloc. Both
// findings carry the one fix of the instantiations (both buffers), and both
// instantiations allow it.
template <typename T> void typed(unsigned rounds) {
  float *k = nullptr;
  T *indices = nullptr;
  for (unsigned batch = 1; batch <= rounds; batch *= 2) {
    CHECK(cudaMalloc(&k, batch * sizeof(float))); // applied
    CHECK(cudaMalloc(&indices, batch * sizeof(T))); // applied
    fill<<<1, 256>>>(k, int(batch));
    CHECK(cudaMemcpy(indices, k, sizeof(float), cudaMemcpyDeviceToDevice));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaFree(k));
    CHECK(cudaFree(indices));
  }
}

int main() {
  float *d = nullptr;
  float last = 0;
  for (int n = 256; n <= 4096; n *= 2) {
    CHECK(cudaMalloc(&d, n * sizeof(float))); // applied
    fill<<<(n + 255) / 256, 256>>>(d, n);
    CHECK(cudaMemcpy(&last, d + n - 1, sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));
  }
  float *h = nullptr;
  for (int n = 8; n > 0; --n) {
    int count = n * 3;
    cudaMallocHost(&h, count * sizeof(float)); // applied
    h[count - 1] = last;
    cudaFreeHost(h);
  }
  typed<int>(64);
  typed<double>(64);
  printf("%g\n", last);
  return 0;
}
