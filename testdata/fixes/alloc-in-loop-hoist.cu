#include <cuda_runtime.h>

#define CHECK(call) (void)(call)

__global__ void step(float *d) { d[0] += 1.0f; }

void iterate(int n, size_t bytes) {
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&d, bytes);
    step<<<1, 1>>>(d);
    cudaFree(d);
  }
}

void pinned(int n) {
  float *h = nullptr;
  while (n-- > 0) {
    CHECK(cudaMallocHost(&h, 64 * sizeof(float)));
    h[0] = 1.0f;
    CHECK(cudaFreeHost(h));
  }
}

void onStream(cudaStream_t s, int n) {
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&d, 256);
    step<<<1, 1, 0, s>>>(d);
    cudaFree(d);
  }
}

// Not hoisted: the size changes every iteration.
void growing(int n) {
  float *d = nullptr;
  for (int i = 1; i < n; ++i) {
    cudaMalloc(&d, i * sizeof(float));
    step<<<1, 1>>>(d);
    cudaFree(d);
  }
}

// Not hoisted: the allocation is conditional.
void conditional(int n, bool big) {
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    if (big)
      cudaMalloc(&d, 1024);
    step<<<1, 1>>>(d);
    cudaFree(d);
  }
}
