// A program that passes one stream down through its layers (llm.c's
// train_gpt2.cu passes main_stream so): a launch that forgot the stream is
// moved to it when every call around it, in its function and in its
// callers, puts all its work on that same stream (docs/fixes.md, "One
// stream passed through the calls"). "// applied" and "// not applied:
// <reason>" are checked by tests/checks/OrderingFixTest.cpp; the golden is
// default-stream-one-stream.cu.fixed.
#include <cuda_runtime.h>

__global__ void scale(float *d, float v) { d[threadIdx.x] *= v; }
__global__ void shift(float *d, float v) { d[threadIdx.x] += v; }

void launchScale(float *d, float v, cudaStream_t stream) {
  scale<<<1, 64, 0, stream>>>(d, v);
}

// All on `stream`, through launchScale.
void layer(float *d, cudaStream_t stream) {
  launchScale(d, 2.0f, stream);
  launchScale(d, 0.5f, stream);
}

void forward(float *d, cudaStream_t stream) {
  layer(d, stream);
  shift<<<1, 64, 0, stream>>>(d, 1.0f);
}

// The slip: before it, a call that puts all its work on `stream`; after it
// another. Its callers call it in a loop, between calls that get the same
// stream, and the loop's previous round calls it too (with the fix
// applied, all of its work is on `stream` as well).
void backward(float *d, cudaStream_t stream) {
  layer(d, stream);
  shift<<<1, 64>>>(d, -1.0f); // applied
  layer(d, stream);
}

// Work on a second stream, which the moved work would no longer wait for.
void logStats(float *d, cudaStream_t stream, cudaStream_t side) {
  launchScale(d, 1.0f, stream);
  shift<<<1, 64, 0, side>>>(d, 0.0f);
}

void update(float *d, cudaStream_t stream) {
  shift<<<1, 64>>>(d, 0.1f); // not applied: follows a call of 'logStats', which returns with work still pending
  layer(d, stream);
}

// Called in a loop whose every iteration creates its own stream: the
// previous iteration's `layer` got the same variable, but another stream,
// which the moved launch would no longer wait for.
void perStream(float *d, cudaStream_t stream) {
  layer(d, stream);
  shift<<<1, 64>>>(d, 3.0f); // not applied: follows a call of 'layer', which returns with work still pending
}

// Clears on the legacy stream, twice: it leaves legacy-stream work
// pending, which a blocking target waits for. (A callee met twice on the
// way is not recursion: before 2026-11-29 the second meeting counted as
// "may leave anything", and refused backward's move below.)
void clear(float *d) { cudaMemset(d, 0, 256); }
void clearTwice(float *d) {
  clear(d);
  clear(d);
}

int main() {
  float *d, h[64];
  cudaMalloc(&d, 256);
  cudaMemset(d, 0, 256);
  cudaStream_t stream, side;
  cudaStreamCreate(&stream);
  cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  clearTwice(d);
  for (int step = 0; step < 10; ++step) {
    forward(d, stream);
    backward(d, stream);
    forward(d, stream);
  }
  cudaDeviceSynchronize();
  for (int step = 0; step < 10; ++step) {
    logStats(d, stream, side);
    update(d, stream);
  }
  cudaDeviceSynchronize();
  for (int i = 0; i < 10; ++i) {
    cudaStream_t own;
    cudaStreamCreate(&own);
    perStream(d, own);
    layer(d, own);
  }
  cudaDeviceSynchronize();
  cudaMemcpyAsync(h, d, 256, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  cudaStreamDestroy(side);
  cudaStreamDestroy(stream);
  cudaFree(d);
  return h[0] > 0.0f ? 0 : 1;
}
