// default-stream: launches and stream-ordered calls on the legacy default
// stream. Built without per-thread default stream.
#include <cuda_runtime.h>
#include <stdlib.h>

__global__ void kernel(float *data) {}

#define CUDA_CHECK(call) do { if ((call) != cudaSuccess) abort(); } while (0)
#define LAUNCH_ON_DEFAULT(d) kernel<<<1, 32>>>(d)
#define LAUNCH_ON(stream, d) kernel<<<1, 32, 0, stream>>>(d)

struct Pipeline {
  cudaStream_t stream;
  cudaStream_t get() const { return stream; }
};

cudaStream_t currentStream();
const cudaStream_t kLegacyAlias = cudaStreamLegacy;

void launches(float *d, cudaStream_t s, Pipeline &p) {
  kernel<<<1, 32>>>(d);                              // CHECK: default-stream:3 {{no stream given}}
  kernel<<<1, 32, 64>>>(d);                          // CHECK: default-stream
  kernel<<<1, 32, 0, 0>>>(d);                        // CHECK: default-stream {{stream is 0}}
  kernel<<<1, 32, 0, NULL>>>(d);                     // CHECK: default-stream {{stream is NULL}}
  kernel<<<1, 32, 0, nullptr>>>(d);                  // CHECK: default-stream {{stream is nullptr}}
  kernel<<<1, 32, 0, cudaStreamLegacy>>>(d);         // CHECK: default-stream {{cudaStreamLegacy}}
  kernel<<<1, 32, 0, kLegacyAlias>>>(d);             // CHECK: default-stream
  // Streams that are not provably the legacy one: quiet.
  kernel<<<1, 32, 0, s>>>(d);
  kernel<<<1, 32, 0, p.stream>>>(d);
  kernel<<<1, 32, 0, p.get()>>>(d);
  kernel<<<1, 32, 0, currentStream()>>>(d);
  kernel<<<1, 32, 0, cudaStreamPerThread>>>(d);
  kernel<<<1, 32, 0, d ? s : 0>>>(d);
}

void localStreams(float *d, bool useStream) {
  cudaStream_t zero = 0;
  kernel<<<1, 32, 0, zero>>>(d);                     // CHECK: default-stream:3 {{'zero' is only ever 0}} [[never holds a created stream]]
  zero = nullptr;
  kernel<<<1, 32, 0, zero>>>(d);                     // CHECK: default-stream

  cudaStream_t created = 0;
  if (useStream)
    cudaStreamCreate(&created);                      // address taken: may be a real stream
  kernel<<<1, 32, 0, created>>>(d);

  cudaStream_t chosen = nullptr;
  chosen = currentStream();
  kernel<<<1, 32, 0, chosen>>>(d);

  cudaStream_t uninitialized;
  cudaStreamCreate(&uninitialized);
  kernel<<<1, 32, 0, uninitialized>>>(d);
}

void runtimeCalls(float *d, const float *h, size_t n, cudaStream_t s,
                  cudaEvent_t e, cudaGraphExec_t g, cudaHostFn_t fn) {
  cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice);          // CHECK: default-stream:3 {{cudaMemcpyAsync}}
  cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, 0);       // CHECK: default-stream
  cudaMemcpyAsync(d, h, n, cudaMemcpyHostToDevice, s);
  cudaMemsetAsync(d, 0, n);                                  // CHECK: default-stream {{cudaMemsetAsync}}
  cudaMemsetAsync(d, 0, n, cudaStreamPerThread);
  cudaEventRecord(e);                                        // CHECK: default-stream {{cudaEventRecord}}
  cudaEventRecord(e, s);
  cudaStreamWaitEvent(0, e, 0);                              // CHECK: default-stream {{cudaStreamWaitEvent}}
  cudaStreamWaitEvent(s, e, 0);
  cudaGraphLaunch(g, 0);                                     // CHECK: default-stream {{cudaGraphLaunch}}
  cudaGraphLaunch(g, s);
  cudaLaunchHostFunc(cudaStreamLegacy, fn, nullptr);         // CHECK: default-stream
  cudaLaunchHostFunc(s, fn, nullptr);
  float *p = nullptr;
  cudaMallocAsync(&p, n, 0);                                 // CHECK: default-stream {{cudaMallocAsync}}
  cudaMallocAsync(&p, n, s);
  cudaFreeAsync(p, 0);                                       // CHECK: default-stream {{cudaFreeAsync}}
  cudaFreeAsync(p, s);
  cudaMemLocation device = {cudaMemLocationTypeDevice, 0};
  cudaMemPrefetchAsync(d, n, device, 0, 0);                  // CHECK: default-stream {{cudaMemPrefetchAsync}}
  cudaMemPrefetchAsync(d, n, device, 0, s);
  void *args[] = {&d};
  cudaLaunchKernel((const void *)kernel, 1, 32, args, 0, 0); // CHECK: default-stream {{cudaLaunchKernel}}
  cudaLaunchKernel(kernel, 1, 32, args);                     // CHECK: default-stream
  cudaLaunchKernel(kernel, 1, 32, args, 0, s);
  cudaLaunchCooperativeKernel(kernel, 1, 32, args);          // CHECK: default-stream {{cudaLaunchCooperativeKernel}}
  // Synchronous calls and stream queries are other checks' business.
  cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);
  cudaStreamSynchronize(0);
  cudaStreamQuery(0);
}

void macros(float *d, cudaStream_t s) {
  CUDA_CHECK(cudaMemcpyAsync(d, d, 4, cudaMemcpyDeviceToDevice)); // CHECK: default-stream
  CUDA_CHECK(cudaMemcpyAsync(d, d, 4, cudaMemcpyDeviceToDevice, s));
  // The message names the stream, not the macro's text (seen in cuda-samples).
  CUDA_CHECK(cudaEventRecord(nullptr, 0));                   // CHECK: default-stream {{(stream is 0)}}
  LAUNCH_ON_DEFAULT(d);                                      // CHECK: default-stream
  LAUNCH_ON(s, d);
  LAUNCH_ON(0, d);                                           // CHECK: default-stream
}

template <typename T> void templated(T *d, cudaStream_t s) {
  kernel<<<1, 32>>>((float *)d);                             // CHECK: default-stream
  kernel<<<1, 32, 0, s>>>((float *)d);
  cudaMemsetAsync(d, 0, sizeof(T));                          // CHECK: default-stream
}
template void templated<float>(float *, cudaStream_t);
template void templated<int>(int *, cudaStream_t);

// Never instantiated: the launch does not depend on T, so it is still found.
template <typename T> void uninstantiated(float *d) {
  kernel<<<1, 32>>>(d);                                      // CHECK: default-stream
}

// The stream's type depends on the template argument: decided per use.
template <typename Stream> void genericStream(float *d, Stream s) {
  kernel<<<1, 32, 0, s>>>(d);
}
template void genericStream<cudaStream_t>(float *, cudaStream_t);

void lambdas(float *d, cudaStream_t s) {
  auto onDefault = [d] { kernel<<<1, 32>>>(d); };            // CHECK: default-stream
  auto onStream = [d](cudaStream_t stream) { kernel<<<1, 32, 0, stream>>>(d); };
  auto captured = [&] { cudaMemsetAsync(d, 0, 4, s); };
  onDefault();
  onStream(s);
  captured();
}

// Device-side launches: default-stream-device.cu (needs -fgpu-rdc).
