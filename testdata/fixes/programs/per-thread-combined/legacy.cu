// device-sync's narrowed wait relying on default-stream's moves: the host
// waits for work the function issued on the legacy stream, which
// default-stream's fixes move to cudaStreamPerThread. One fix makes the
// narrowing and the moves (docs/fixes.md, rule 10).
#include <cuda_runtime.h>

__global__ void twice(float *d) { d[0] *= 2.0f; }

// Nothing is pending at its call: the copies and launches move, and the
// wait for them narrows to the per-thread stream with them.
void copyLoop(float *d, const float *h, int n, int iterations) {
  for (int i = 0; i < iterations; ++i) {
    cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice); // applied
    twice<<<1, 64>>>(d); // applied
    cudaDeviceSynchronize(); // applied
  }
}

// Its caller has a launch on a created stream pending at the call: on the
// legacy stream this launch waited for it, and so did the device-wide wait.
void afterStream(float *d) {
  twice<<<1, 64>>>(d); // not applied: before it runs: its call at main.cu:41 (in 'main') follows the kernel launch
  cudaDeviceSynchronize(); // not applied: before it runs: its call at main.cu:41 (in 'main') follows the kernel launch
}

// Each iteration ends waiting for the device, so nothing it issued is
// pending when it returns: its second call in main finds nothing pending,
// and a wait for the per-thread stream waits for all the launches (those of
// the inner loop too) that the device-wide wait did.
void rounds(float *d, int n, int m) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j)
      twice<<<1, 64>>>(d); // applied
    cudaDeviceSynchronize(); // applied
  }
}

// The same with a `break` before the wait: the last iteration's launches
// may still run when it returns, and its second call follows them.
void roundsBreak(float *d, int n, int m) {
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < m; ++j)
      twice<<<1, 64>>>(d); // applied
    if (i == m)
      break;
    cudaDeviceSynchronize(); // not applied: before it runs: its call at main.cu:35 (in 'main') follows a call of 'roundsBreak', which returns with work still pending
  }
}

// A synchronous copy in an error-check macro that keeps the result
// (`cudaError_t err = call;`): made Async on the per-thread stream.
#define CHECK(call)                                                                            \
  do {                                                                                         \
    cudaError_t err = call;                                                                    \
    if (err != cudaSuccess)                                                                    \
      return;                                                                                  \
  } while (0)

void checkedCopies(float *d, float *h, int n, int iterations) {
  for (int i = 0; i < iterations; ++i) {
    CHECK(cudaMemcpy(d, h, n, cudaMemcpyHostToDevice)); // applied
  }
}

// The wait follows a synchronous memset that device-sync's own fix makes
// Async on the per-thread stream (and waits for): the narrowed wait carries
// that rewrite as well, and relies on device-sync's fix of it.
void clearLoop(float *d, int n, int iterations) {
  for (int i = 0; i < iterations; ++i) {
    cudaMemset(d, 0, n); // applied
    cudaDeviceSynchronize(); // applied
  }
}
