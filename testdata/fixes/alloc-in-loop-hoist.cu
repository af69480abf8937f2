// alloc-in-loop's hoist: a loop-invariant size, the buffer allocated and
// freed in every iteration. cudaFree/cudaFreeHost wait for the whole device,
// so the loop must wait by itself before the free (or do no device work).
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

__global__ void step(float *d) { d[0] += 1.0f; }

// The copy to the host waits for the launch before the free does.
void iterate(int n, size_t bytes, float *h) {
  cudaDeviceSynchronize();
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    CHECK(cudaMalloc(&d, bytes)); // applied
    step<<<1, 1>>>(d);
    CHECK(cudaMemcpy(h, d, sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d));
  }
}

// Host work on pinned memory only; the device was idle before the loop.
void pinned(int n) {
  cudaDeviceSynchronize();
  float *h = nullptr;
  while (n-- > 0) {
    cudaMallocHost(&h, 64 * sizeof(float)); // applied
    h[0] = 1.0f;
    cudaFreeHost(h);
  }
}

// Managed memory, a do-while loop and an explicit wait on the stream.
void managed(cudaStream_t s, int n) {
  cudaDeviceSynchronize();
  float *m = nullptr;
  int i = 0;
  do {
    if (cudaMallocManaged(&m, 256, cudaMemAttachGlobal) != cudaSuccess) exit(2); // applied
    step<<<1, 1, 0, s>>>(m);
    cudaStreamSynchronize(s);
    cudaFree(m);
  } while (++i < n);
}

int main() {
  float h = 0;
  iterate(4, 256, &h);
  pinned(4);
  managed(0, 4);
  float *d = nullptr;
  for (int i = 0; i < 4; ++i) {
    cudaMalloc(&d, 1024); // applied
    step<<<1, 1>>>(d);
    cudaDeviceSynchronize();
    cudaFree(d);
  }
  return 0;
}
