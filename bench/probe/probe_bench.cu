// Probe overhead workloads. Prints "<mode> calls=<runtime API calls timed>
// us=<microseconds>" for the timed part (after CUDA start-up).
//   probe_bench launch [N]      N empty kernels on a stream (default 100000)
//   probe_bench pipeline [IT]   H2D, 4 kernels, D2H on 2 streams, IT rounds
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__global__ void empty() {}

__global__ void work(float *x, int n, int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  for (int r = 0; r < rounds; ++r)
    v = v * 0.999f + 0.001f;
  x[i] = v;
}

static double nowUs() {
  using namespace std::chrono;
  return duration<double, std::micro>(steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "launch";
  cudaStream_t s[2];
  for (auto &st : s)
    cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
  empty<<<1, 1, 0, s[0]>>>(); // warm up
  cudaStreamSynchronize(s[0]);
  if (std::strcmp(mode, "launch") == 0) {
    long n = argc > 2 ? std::atol(argv[2]) : 100000;
    double t0 = nowUs();
    for (long i = 0; i < n; ++i)
      empty<<<1, 32, 0, s[0]>>>();
    cudaStreamSynchronize(s[0]);
    std::printf("launch calls=%ld us=%.0f\n", n + 1, nowUs() - t0);
    return 0;
  }
  int iters = argc > 2 ? std::atoi(argv[2]) : 200;
  const int n = 1 << 21; // 8 MiB of floats per stream
  float *h[2], *d[2];
  for (int k = 0; k < 2; ++k) {
    cudaMallocHost(&h[k], n * sizeof(float));
    cudaMalloc(&d[k], n * sizeof(float));
    for (int i = 0; i < n; ++i)
      h[k][i] = float(i % 97);
  }
  long calls = 0;
  double t0 = nowUs();
  for (int it = 0; it < iters; ++it) {
    for (int k = 0; k < 2; ++k) {
      cudaMemcpyAsync(d[k], h[k], n * sizeof(float), cudaMemcpyHostToDevice, s[k]);
      for (int j = 0; j < 4; ++j)
        work<<<n / 256, 256, 0, s[k]>>>(d[k], n, 16);
      cudaMemcpyAsync(h[k], d[k], n * sizeof(float), cudaMemcpyDeviceToHost, s[k]);
      calls += 6;
    }
    for (auto &st : s)
      cudaStreamSynchronize(st);
    calls += 2;
  }
  double us = nowUs() - t0;
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += h[0][i] + h[1][i];
  std::printf("pipeline calls=%ld us=%.0f checksum=%.3f\n", calls, us, sum);
  return 0;
}
