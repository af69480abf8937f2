// The functions of main.cu. `multi*` issue on an array of streams and wait
// in a later loop; `one*` are legacy-stream sequences whose synchronous
// copies device-sync makes Async on cudaStreamPerThread (with
// default-stream moving the launch), applied only when the `multi*` called
// before returns with nothing pending.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>

// base64e's GPU_CHECK.
void check(cudaError_t e, const char *file, int line) {
  if (e != cudaSuccess) {
    printf("%s at %s:%d\n", cudaGetErrorString(e), file, line);
    exit(1);
  }
}
#define CHECK(call) { check((call), __FILE__, __LINE__); }

const int kStreams = 4;

__global__ void encode(unsigned char *d, int offset) { d[offset + threadIdx.x] += 1; }

// base64e's MultiQueueSequence: every iteration ends waiting for every
// stream it issued to, so nothing is pending at the return.
void multi(unsigned char *d, unsigned char *h, int cycles) {
  cudaStream_t stream[kStreams];
  for (int i = 0; i < kStreams; i++)
    CHECK(cudaStreamCreate(&stream[i]));
  for (int c = 0; c < cycles; c++) {
    for (int i = 0; i < kStreams; i++) {
      int offset = i * 64;
      CHECK(cudaMemcpyAsync(d + offset, h + offset, 64, cudaMemcpyHostToDevice, stream[i]));
      encode<<<1, 64, 0, stream[i]>>>(d, offset);
      CHECK(cudaMemcpyAsync(h + offset, d + offset, 64, cudaMemcpyDeviceToHost, stream[i]));
    }
    for (int i = 0; i < kStreams; i++)
      CHECK(cudaStreamSynchronize(stream[i]));
  }
  for (int i = 0; i < kStreams; i++)
    CHECK(cudaStreamDestroy(stream[i]));
}

// base64e's OneQueueSequence, called after multi().
void one(unsigned char *d, unsigned char *h, int cycles) {
  for (int c = 0; c < cycles; c++) {
    CHECK(cudaMemcpy(d, h, 256, cudaMemcpyHostToDevice)); // applied
    encode<<<1, 256>>>(d, 0);
    CHECK(cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost)); // applied
  }
}

// The wait loop starts at 1: stream[0]'s work is still pending.
void multiRange(unsigned char *d, unsigned char *h, int cycles) {
  cudaStream_t stream[kStreams];
  for (int i = 0; i < kStreams; i++)
    cudaStreamCreate(&stream[i]);
  for (int c = 0; c < cycles; c++) {
    for (int i = 0; i < kStreams; i++)
      encode<<<1, 64, 0, stream[i]>>>(d, i * 64);
    for (int i = 1; i < kStreams; i++)
      cudaStreamSynchronize(stream[i]);
  }
}

void oneAfterRange(unsigned char *d, unsigned char *h, int cycles) {
  for (int c = 0; c < cycles; c++) {
    CHECK(cudaMemcpy(d, h, 256, cudaMemcpyHostToDevice)); // not applied: which returns with work still pending
    encode<<<1, 256>>>(d, 0);
    CHECK(cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost));
  }
}

// The wait loop waits for another array's streams.
void multiOtherArray(unsigned char *d, unsigned char *h, int cycles) {
  cudaStream_t stream[kStreams], other[kStreams];
  for (int i = 0; i < kStreams; i++) {
    cudaStreamCreate(&stream[i]);
    cudaStreamCreate(&other[i]);
  }
  for (int c = 0; c < cycles; c++) {
    for (int i = 0; i < kStreams; i++)
      encode<<<1, 64, 0, stream[i]>>>(d, i * 64);
    for (int i = 0; i < kStreams; i++)
      cudaStreamSynchronize(other[i]);
  }
}

void oneAfterOtherArray(unsigned char *d, unsigned char *h, int cycles) {
  for (int c = 0; c < cycles; c++) {
    CHECK(cudaMemcpy(d, h, 256, cudaMemcpyHostToDevice)); // not applied: which returns with work still pending
    encode<<<1, 256>>>(d, 0);
    CHECK(cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost));
  }
}

// A stream is destroyed between the loops: the name no longer means the
// stream that got the work.
void multiDestroyed(unsigned char *d, unsigned char *h, int cycles) {
  cudaStream_t stream[kStreams];
  for (int i = 0; i < kStreams; i++)
    cudaStreamCreate(&stream[i]);
  for (int c = 0; c < cycles; c++) {
    for (int i = 0; i < kStreams; i++)
      encode<<<1, 64, 0, stream[i]>>>(d, i * 64);
    cudaStreamDestroy(stream[0]);
    cudaStreamCreate(&stream[0]);
    for (int i = 0; i < kStreams; i++)
      cudaStreamSynchronize(stream[i]);
  }
}

void oneAfterDestroyed(unsigned char *d, unsigned char *h, int cycles) {
  for (int c = 0; c < cycles; c++) {
    CHECK(cudaMemcpy(d, h, 256, cudaMemcpyHostToDevice)); // not applied: which returns with work still pending
    encode<<<1, 256>>>(d, 0);
    CHECK(cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost));
  }
}

// The bound is written between the loops: the wait loop covers fewer streams.
void multiBoundWritten(unsigned char *d, unsigned char *h, int cycles, int count) {
  cudaStream_t stream[kStreams];
  for (int i = 0; i < kStreams; i++)
    cudaStreamCreate(&stream[i]);
  for (int c = 0; c < cycles; c++) {
    for (int i = 0; i < count; i++)
      encode<<<1, 64, 0, stream[i]>>>(d, i * 64);
    count = count - 1;
    for (int i = 0; i < count; i++)
      cudaStreamSynchronize(stream[i]);
  }
}

void oneAfterBoundWritten(unsigned char *d, unsigned char *h, int cycles) {
  for (int c = 0; c < cycles; c++) {
    CHECK(cudaMemcpy(d, h, 256, cudaMemcpyHostToDevice)); // not applied: which returns with work still pending
    encode<<<1, 256>>>(d, 0);
    CHECK(cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost));
  }
}

// Within one function: the wait loop covers the issuing loop, so the copy
// after it has nothing of that work to wait for.
void multiThenCopy(unsigned char *d, unsigned char *h) {
  cudaStream_t stream[kStreams];
  for (int i = 0; i < kStreams; i++)
    CHECK(cudaStreamCreate(&stream[i]));
  for (int r = 0; r < 2; r++) {
    for (int i = 0; i < kStreams; i++)
      encode<<<1, 64, 0, stream[i]>>>(d, i * 64);
    for (int i = 0; i < kStreams; i++)
      CHECK(cudaStreamSynchronize(stream[i]));
    CHECK(cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost)); // applied
  }
}

// The same with a wait loop over a different range: stream[0] is pending.
void multiRangeThenCopy(unsigned char *d, unsigned char *h) {
  cudaStream_t stream[kStreams];
  for (int i = 0; i < kStreams; i++)
    CHECK(cudaStreamCreate(&stream[i]));
  for (int r = 0; r < 2; r++) {
    for (int i = 0; i < kStreams; i++)
      encode<<<1, 64, 0, stream[i]>>>(d, i * 64);
    for (int i = 1; i < kStreams; i++)
      CHECK(cudaStreamSynchronize(stream[i]));
    CHECK(cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost)); // not applied: the host would no longer wait for
  }
}
