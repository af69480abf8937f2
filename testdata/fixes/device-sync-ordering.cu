// device-sync's cudaDeviceSynchronize -> cudaStreamSynchronize(s) only when
// all the work the host then waits for was issued to s (docs/fixes.md).
// "// applied" / "// not applied: <reason>" are checked by
// tests/checks/OrderingFixTest.cpp.
#include <cuda_runtime.h>

__global__ void step(float *d) { d[0] += 1.0f; }
__global__ void other(float *d) { d[1] += 1.0f; }

cudaStream_t sideStream;

// The copy before the loop is on the legacy stream; the first launch on the
// blocking stream s waits for it, so waiting for s waits for it too.
int main() {
  float *d, h[2] = {0, 0};
  cudaMalloc(&d, sizeof h);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  for (int i = 0; i < 8; ++i) {
    step<<<1, 1, 0, s>>>(d);
    cudaMemcpyAsync(h, d, sizeof h, cudaMemcpyDeviceToHost, s);
    cudaDeviceSynchronize(); // applied
  }
  cudaStreamDestroy(s);
  __builtin_printf("%g %g\n", h[0], h[1]); return h[0] == 8.0f ? 0 : 1;
}

// Work on another stream is still pending when the loop starts: the device
// sync waited for it in the first iteration.
void pendingOtherStream(float *d, float *h) {
  cudaDeviceSynchronize();
  cudaStream_t s;
  cudaStreamCreate(&s);
  other<<<1, 1, 0, sideStream>>>(d);
  for (int i = 0; i < 8; ++i) {
    step<<<1, 1, 0, s>>>(d);
    cudaMemcpyAsync(h, d, 8, cudaMemcpyDeviceToHost, s);
    cudaDeviceSynchronize(); // not applied: the host would no longer wait for the kernel launch at line 35 (stream 'sideStream')
  }
  cudaStreamDestroy(s);
}

// The callers' earlier work: a function called with work still in flight on
// other streams relied on its device sync.
void callersWork(float *d, float *h, cudaStream_t s, int n) {
  for (int i = 0; i < n; ++i) {
    step<<<1, 1, 0, s>>>(d);
    cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
    cudaDeviceSynchronize(); // not applied: the host would no longer wait for work the callers of 'callersWork' issued
  }
}
