// cudaDeviceSynchronize() with work pending on several named streams: one
// cudaStreamSynchronize per stream (a loop of them for an array loop), when
// each name still means the stream that got the work.
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t status = (call);                                               \
    if (status != cudaSuccess)                                                 \
      __builtin_abort();                                                       \
  } while (0)

__global__ void fill(float *d) { d[0] = 1.0f; }

void hostOnly(int *counter);
void deviceWork(float *d);

// Two created streams: wait for each.
void twoStreams(float *d) {
  cudaStream_t a, b;
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  fill<<<1, 1, 0, a>>>(d);
  fill<<<1, 1, 0, b>>>(d + 1);
  cudaDeviceSynchronize(); // applied
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
}

// qem's shape: a loop over the array, then the last element in a branch.
void arrayAndRest(float *d, int n) {
  const int parts = 4;
  cudaStream_t s[parts + 1];
  for (int i = 0; i <= parts; ++i)
    CHECK(cudaStreamCreate(&s[i]));
  for (int i = 0; i < parts; ++i)
    fill<<<1, 1, 0, s[i]>>>(d + i);
  if (n % parts != 0)
    fill<<<1, 1, 0, s[parts]>>>(d + parts);
  CHECK(cudaDeviceSynchronize()); // applied
  for (int i = 0; i <= parts; ++i)
    CHECK(cudaStreamDestroy(s[i]));
}

// triad's shape: two elements of an array in a loop, after a call of a
// function of another file that has no CUDA work.
void pipelined(float *d, int *counter, int passes) {
  cudaStream_t st[2];
  cudaStreamCreate(&st[0]);
  cudaStreamCreate(&st[1]);
  hostOnly(counter);
  for (int p = 0; p < passes; ++p) {
    fill<<<1, 1, 0, st[0]>>>(d);
    fill<<<1, 1, 0, st[1]>>>(d + 1);
    cudaDeviceSynchronize(); // applied
  }
  cudaStreamDestroy(st[0]);
  cudaStreamDestroy(st[1]);
}

// 'b' names another stream at the wait than the one that got the work.
void reassigned(float *d) {
  cudaStream_t a, b, c;
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  cudaStreamCreate(&c);
  fill<<<1, 1, 0, a>>>(d);
  fill<<<1, 1, 0, b>>>(d + 1);
  b = c;
  cudaDeviceSynchronize(); // not applied: the host would no longer wait for the kernel launch at line 68 (stream 'b')
  cudaStreamDestroy(a);
  cudaStreamDestroy(c);
}

// A stream is destroyed after the work on 'b' was issued.
void destroyedBetween(float *d) {
  cudaStream_t a, b, c;
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  cudaStreamCreate(&c);
  fill<<<1, 1, 0, b>>>(d + 1);
  cudaStreamDestroy(c);
  fill<<<1, 1, 0, a>>>(d);
  cudaDeviceSynchronize(); // not applied: the host would no longer wait for the kernel launch at line 81 (stream 'b')
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
}

// A call that does CUDA work on the legacy stream is pending too.
void unknownPending(float *d) {
  cudaStream_t a, b;
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  fill<<<1, 1, 0, a>>>(d);
  fill<<<1, 1, 0, b>>>(d + 1);
  deviceWork(d);
  cudaDeviceSynchronize(); // not applied: the call of 'deviceWork' at line 96, which may return with the kernel launch at
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
}

// 'inner' is not visible at the wait.
void notVisible(float *d) {
  cudaStream_t a;
  cudaStreamCreate(&a);
  {
    cudaStream_t inner;
    cudaStreamCreate(&inner);
    fill<<<1, 1, 0, inner>>>(d + 1);
  }
  fill<<<1, 1, 0, a>>>(d);
  cudaDeviceSynchronize(); // not applied: the host would no longer wait for the kernel launch at line 109 (stream 'inner')
  cudaStreamDestroy(a);
}

// Rule 9 with the result assigned: no stream variable here, so the copy
// goes to cudaStreamPerThread; 'err' gets the copy's error if it fails,
// else the wait's.
cudaError_t copyBack(float *h, const float *d) {
  cudaError_t err;
  err = cudaMemcpy(h, d, 4 * sizeof(float), cudaMemcpyDeviceToHost); // applied
  return err;
}

// perlin's shape: an error check that evaluates its argument again in a
// branch that ends the program. That second copy never runs before the
// function returns, so nothing is pending at the return and the callers
// clear the timing wait before the loop: narrowed to the per-thread stream.
#define CHECK_TWICE(x)                                                         \
  do {                                                                         \
    if ((x) != cudaSuccess) {                                                  \
      __builtin_printf("error %d\n", (int)(x));                                \
      __builtin_abort();                                                       \
    }                                                                          \
  } while (0)

void timedStreams(float *h, cudaStream_t *streams, int n) {
  float *t;
  CHECK_TWICE(cudaMalloc(&t, 4 * sizeof(float)));
  CHECK_TWICE(cudaDeviceSynchronize()); // applied
  for (int i = 0; i < n; ++i)
    fill<<<1, 1, 0, streams[i]>>>(t);
  CHECK_TWICE(cudaDeviceSynchronize()); // rule 8 (decided in this function)
  CHECK_TWICE(cudaMemcpy(h, t, 4 * sizeof(float), cudaMemcpyDeviceToHost)); // applied
  CHECK_TWICE(cudaFree(t));
}

// No rewrite: the result goes to an array element or through a cast to an
// int; only a plain cudaError_t variable is assigned twice safely.
void assignedElsewhere(float *h, const float *d, cudaError_t *codes, int *raw) {
  codes[0] = cudaMemcpy(h, d, 4 * sizeof(float), cudaMemcpyDeviceToHost);
  *raw = (int)cudaMemcpy(h, d, 4 * sizeof(float), cudaMemcpyDeviceToHost);
}
