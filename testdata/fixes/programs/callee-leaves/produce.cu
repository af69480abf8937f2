// The callees of main.cu, in another file: what each leaves pending when
// it returns decides whether main's copy after its call may stop waiting
// for the whole device.
#include <cuda_runtime.h>

__global__ void fill(unsigned *d) { d[threadIdx.x] += 1; }

// lfib4's gLFIB4: the created streams are waited for, the legacy-stream
// launch at the end is left pending.
void produce(unsigned *d) {
  cudaStream_t a, b;
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  fill<<<1, 4, 0, a>>>(d);
  fill<<<1, 4, 0, b>>>(d + 4);
  cudaStreamSynchronize(a);
  cudaStreamSynchronize(b);
  fill<<<1, 8>>>(d);
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
}

// Work left on a created (blocking) stream: the per-thread stream does not
// wait for it.
void produceCreated(unsigned *d) {
  cudaStream_t a;
  cudaStreamCreate(&a);
  fill<<<1, 4, 0, a>>>(d);
}

// Work left on a non-blocking stream.
void produceNonBlocking(unsigned *d) {
  cudaStream_t a;
  cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  fill<<<1, 4, 0, a>>>(d);
}

// Work left on the stream its caller passes.
void produceOn(unsigned *d, cudaStream_t s) { fill<<<1, 4, 0, s>>>(d); }

// Recursive: what it leaves is not known.
void produceRecursive(unsigned *d, int n) {
  fill<<<1, 4>>>(d);
  if (n > 0)
    produceRecursive(d, n - 1);
}

// A stream main passes on without a variable of its own.
cudaStream_t makeStream() {
  cudaStream_t s;
  cudaStreamCreate(&s);
  return s;
}
