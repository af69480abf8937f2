// pageable-memcpy-async's pinned allocation beyond one function: a static
// global allocated once, and the buffers a static allocation wrapper
// returns. "// applied" / "// not applied: <reason>" / "// no fix: <reason>"
// are checked by tests/checks/OrderingFixTest.cpp; the edits by FixGoldenTest.
#include <cuda_runtime.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>

static float *staging = nullptr;

void setUp(size_t n) {
  staging = (float *)malloc(n * sizeof(float));
}

void upload(float *device, size_t n, cudaStream_t stream) {
  cudaMemcpyAsync(device, staging, n * sizeof(float), cudaMemcpyHostToDevice, stream); // applied
  cudaStreamSynchronize(stream);
}

void tearDown() {
  free(staging);
}

static float *hostBuffer(size_t bytes) {
  return (float *)malloc(bytes);
}

void roundTrip(float *device, size_t n, cudaStream_t stream) {
  float *in = hostBuffer(n * sizeof(float));
  for (size_t i = 0; i < n; ++i)
    in[i] = float(i);
  cudaMemcpyAsync(device, in, n * sizeof(float), cudaMemcpyHostToDevice, stream); // applied
  cudaStreamSynchronize(stream);
  free(in);
}

void readBack(float *device, size_t n, cudaStream_t stream, float *sum) {
  float *out = hostBuffer(n * sizeof(float));
  cudaMemcpyAsync(out, device, n * sizeof(float), cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  *sum = out[0];
  free(out);
}

// Standard library calls before the wait run no code of the program and
// read only what they are given (literals, a stack object, values): the
// copy may be pending while they run. The delete[] becomes cudaFreeHost,
// which waits.
void timedUpload(float *device, size_t n, cudaStream_t stream, const char *mode) {
  float *h = new float[n];
  for (size_t i = 0; i < n; ++i)
    h[i] = float(i);
  auto start = std::chrono::steady_clock::now();
  cudaMemcpyAsync(device, h, n * sizeof(float), cudaMemcpyHostToDevice, stream); // applied
  int blocks = (int)ceil(n / 256.0);
  char label[8];
  memset(label, 0, sizeof(label));
  bool fast = strcmp("fast", "slow") == 0;
  auto end = std::chrono::steady_clock::now();
  std::chrono::duration<double> elapsed = end - start;
  std::cout << blocks << (fast ? " fast " : " ") << elapsed.count() << std::endl;
  delete[] h;
  cudaStreamSynchronize(stream);
}
