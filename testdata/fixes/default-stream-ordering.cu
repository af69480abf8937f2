// default-stream's fixes and the happens-before edges of the legacy stream
// (docs/fixes.md). "// applied" and "// not applied: <reason>" on a finding's
// line are checked by tests/checks/OrderingFixTest.cpp; the golden is
// default-stream-ordering.cu.fixed.
#include <cuda_runtime.h>

__global__ void init(float *d) { d[threadIdx.x] = 1.0f; }
__global__ void fill(float *d, float v) { d[threadIdx.x] += v; }

// A blocking target: the legacy-stream copy after it still waits for it.
int blockingTarget(float *h) {
  float *d;
  cudaMalloc(&d, 256);
  cudaDeviceSynchronize(); // nothing issued before this point is pending
  cudaStream_t s;
  cudaStreamCreate(&s);
  init<<<1, 64, 0, s>>>(d);
  fill<<<1, 64>>>(d, 2.0f); // applied
  cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost);
  cudaStreamDestroy(s);
  cudaFree(d);
  return 0;
}

// The race of issue 13: s1 is non-blocking, so after the move nothing orders
// the kernel before the legacy-stream copy. The fix inserts the wait.
int main() {
  float *d, h[64];
  cudaMalloc(&d, 256);
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  init<<<1, 64, 0, s1>>>(d);
  cudaStream_t zero = 0;
  fill<<<1, 64, 0, zero>>>(d, 2.0f); // applied
  if (h[0] > 0.0f)
    h[1] = 1.0f;
  cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost); // legacy stream, reads d
  blockingTarget(h);
  cudaStreamDestroy(s1);
  __builtin_printf("%g %g\n", h[0], h[63]); return h[0] == 3.0f ? 0 : 1;
}

// The dependent copy is outside the block where the stream lives: no wait
// can be written there, so the fix stays a suggestion.
void streamOutOfScope(float *d, float *h) {
  cudaDeviceSynchronize();
  {
    cudaStream_t s2;
    cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
    init<<<1, 64, 0, s2>>>(d);
    fill<<<1, 64>>>(d, 2.0f); // not applied: the cudaMemcpy at line 53 (legacy default stream) relied on the legacy stream
  }
  cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost);
}

// The dependent work is in the caller: produce() returns with the kernel in
// flight and consume() copies on the legacy stream.
void produce(float *d) {
  cudaDeviceSynchronize();
  cudaStream_t s3;
  cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking);
  init<<<1, 64, 0, s3>>>(d);
  fill<<<1, 64>>>(d, 2.0f); // not applied: 'produce' returns to its callers with this work possibly still running
}
void consume(float *d, float *h) {
  produce(d);
  cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost);
}

// Work issued earlier on another stream: the legacy launch waited for it, a
// launch on s4 does not.
cudaStream_t sideStream;
void earlierOtherStream(float *d) {
  cudaDeviceSynchronize();
  cudaStream_t s4;
  cudaStreamCreate(&s4);
  init<<<1, 64, 0, sideStream>>>(d);
  init<<<1, 64, 0, s4>>>(d);
  fill<<<1, 64>>>(d, 2.0f); // not applied: this work would no longer wait for the kernel launch at line 77 (stream 'sideStream')
  cudaStreamSynchronize(s4);
}

#include <thrust/device_vector.h>
#include <thrust/sort.h>

// A Thrust algorithm on device data runs on the legacy stream and may read
// what the launch wrote: once the launch is on a non-blocking stream nothing
// orders them, so the fix waits for s6 before it.
void thrustAfter(thrust::device_vector<float> &v, float *d) {
  cudaDeviceSynchronize();
  cudaStream_t s6;
  cudaStreamCreateWithFlags(&s6, cudaStreamNonBlocking);
  init<<<1, 64, 0, s6>>>(d);
  fill<<<1, 64>>>(d, 2.0f); // applied
  thrust::sort(v.begin(), v.end());
  cudaStreamSynchronize(s6);
}

// graphConditionalNodes (NVIDIA/cuda-samples) on an H100: the stream is
// destroyed before the legacy-stream launch; passing it there made
// cudaGraphLaunch fail with cudaErrorContextIsDestroyed.
void destroyedFirst(float *d) {
  cudaStream_t gone;
  cudaStreamCreate(&gone);
  init<<<1, 64, 0, gone>>>(d);
  cudaStreamDestroy(gone);
  cudaDeviceSynchronize();
  fill<<<1, 64>>>(d, 2.0f); // not applied: is destroyed (cudaStreamDestroy at line
}

#include <cstdio>
#include <cstdlib>

// A project's own error check named like a library's function (llm.c's
// cublasCheck, the NVIDIA developer blog samples' curandErrCheck_): the
// program defines it, so its body decides what it orders, not its name. A
// cuBLAS function of that name would be a call that may issue work on any
// stream, and the move would need a wait before it.
void cublasCheck(int status, const char *file, int line) {
  if (status != 0) {
    printf("cuBLAS error %d at %s:%d\n", status, file, line);
    exit(EXIT_FAILURE);
  }
}

int checkNamedLikeALibrary(float *h) {
  float *d;
  cudaMalloc(&d, 256);
  cudaDeviceSynchronize();
  cudaStream_t s;
  cudaStreamCreate(&s);
  init<<<1, 64, 0, s>>>(d);
  fill<<<1, 64>>>(d, 2.0f); // applied
  cublasCheck(0, __FILE__, __LINE__);
  cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost);
  cudaStreamDestroy(s);
  cudaFree(d);
  return 0;
}
