// Golden fix-its of default-stream: the stream a function already uses is
// passed where it is unique; everything else is advice, not an edit.
#include <cuda_runtime.h>
#include <stdlib.h>

__global__ void kernel(float *data) {}

#define CUDA_CHECK(call) do { if ((call) != cudaSuccess) abort(); } while (0)
#define LAUNCH_ON_DEFAULT(d) kernel<<<1, 32>>>(d)

void enqueue(float *d, cudaStream_t stream = 0) {
  kernel<<<1, 32, 0, stream>>>(d);
}

// One stream parameter, used by a neighbouring call: pass it. Nothing is
// pending on entry and s is drained before returning, so moving the work to
// s keeps every edge the legacy stream gave (docs/fixes.md).
void withParameter(float *d, const float *h, size_t n, cudaStream_t s) {
  cudaDeviceSynchronize();
  cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);
  kernel<<<1, 32>>>(d);
  kernel<<<dim3(4, 4), dim3(8, 8), 128>>>(d);
  kernel<<<1, 32, 0, 0>>>(d);
  kernel<<<1, 32, 0, NULL>>>(d);
  cudaMemsetAsync(d, 0, n);
  cudaMemcpyAsync(d, h, n,
                  cudaMemcpyHostToDevice);
  CUDA_CHECK(cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice));
  enqueue(d);
  cudaStreamSynchronize(s);
}

// No edit inside a macro body; cudaStreamLegacy spelled out is advice only.
void macroAndLegacy(float *d, cudaStream_t s) {
  kernel<<<1, 32, 0, s>>>(d);
  LAUNCH_ON_DEFAULT(d);                       // in a macro body: no edit
  kernel<<<1, 32, 0, cudaStreamLegacy>>>(d);  // explicit: advice only
}

// A stream created in the function, non-blocking. Not applied: the
// function returns with the memset in flight, and work its callers issue
// afterwards relied on the legacy stream to order it (docs/fixes.md).
void withCreatedStream(float *d, size_t n) {
  cudaStream_t work;
  cudaStreamCreateWithFlags(&work, cudaStreamNonBlocking);
  kernel<<<1, 32, 0, work>>>(d);
  cudaMemsetAsync(d, 0, n);
  cudaStreamDestroy(work);
}

// Two streams in use: which one is right is not knowable.
void twoStreams(float *d, cudaStream_t a, cudaStream_t b) {
  kernel<<<1, 32, 0, a>>>(d);
  kernel<<<1, 32, 0, b>>>(d);
  kernel<<<1, 32>>>(d);
}

// No stream at all: cudaStreamPerThread is suggested, not applied.
void noStream(float *d) {
  kernel<<<1, 32>>>(d);
}

// The stream is declared after the launch: not in scope there.
void declaredLater(float *d) {
  kernel<<<1, 32>>>(d);
  cudaStream_t late;
  cudaStreamCreate(&late);
  kernel<<<1, 32, 0, late>>>(d);
}

// A parameter that nobody passes to a launch is not "the stream in use".
void unusedParameter(float *d, cudaStream_t unused) {
  kernel<<<1, 32>>>(d);
}
