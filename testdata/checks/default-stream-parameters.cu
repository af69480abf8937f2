// default-stream: `cudaStream_t s = 0` parameters. The call that takes the
// default is flagged; launches inside the function use the caller's choice.
#include <cuda_runtime.h>

__global__ void kernel(float *data) {}

void enqueue(float *d, cudaStream_t stream = 0) {
  kernel<<<1, 32, 0, stream>>>(d);                 // not here: the caller decides
}

// Declared with the default, defined later.
void declaredFirst(float *d, cudaStream_t stream = 0);

// Passes the stream on: the default still ends up in a launch.
void forwards(float *d, cudaStream_t stream = 0) { enqueue(d, stream); }

// The default is replaced before use: taking it is harmless.
void replacesDefault(float *d, cudaStream_t stream = 0) {
  if (!stream)
    stream = cudaStreamPerThread;
  kernel<<<1, 32, 0, stream>>>(d);
}

// The stream parameter never reaches a launch or a CUDA call.
void ignoresStream(float *d, cudaStream_t stream = 0) { (void)d; }

// Declared only: what the default reaches is not visible.
void external(float *d, cudaStream_t stream = 0);

// A default of cudaStreamPerThread is fine.
void perThreadByDefault(float *d, cudaStream_t stream = cudaStreamPerThread) {
  kernel<<<1, 32, 0, stream>>>(d);
}

template <typename T> void templatedEnqueue(T *d, cudaStream_t stream = 0) {
  cudaMemsetAsync(d, 0, sizeof(T), stream);
}

struct Queue {
  void push(float *d, cudaStream_t stream = nullptr) {
    kernel<<<1, 32, 0, stream>>>(d);
  }
};

void callers(float *d, cudaStream_t s, Queue &q) {
  enqueue(d);                                      // CHECK: default-stream {{'enqueue' is called without 'stream'}}
  enqueue(d, s);
  enqueue(d, 0);                                   // explicit 0 to a wrapper: not tracked
  declaredFirst(d);                                // CHECK: default-stream
  forwards(d);                                     // CHECK: default-stream
  replacesDefault(d);
  ignoresStream(d);
  external(d);
  perThreadByDefault(d);
  templatedEnqueue(d);                             // CHECK: default-stream
  templatedEnqueue((int *)d, s);
  q.push(d);                                       // CHECK: default-stream
  q.push(d, s);
  auto viaLambda = [&] { enqueue(d); };            // CHECK: default-stream
  viaLambda();
}

void declaredFirst(float *d, cudaStream_t stream) {
  cudaMemcpyAsync(d, d, 4, cudaMemcpyDeviceToDevice, stream);
}
