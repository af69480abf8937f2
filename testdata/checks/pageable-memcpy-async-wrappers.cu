// pageable-memcpy-async: host buffers from allocation wrappers (functions
// returning malloc/new/cudaMallocHost results, directly or after checks).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

void *checkedMalloc(size_t bytes) {
  void *p = malloc(bytes);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    abort();
  }
  return p;
}

static float *hostFloats(size_t n) { return (float *)checkedMalloc(n * sizeof(float)); }

float *newFloats(size_t n) {
  if (n == 0)
    return nullptr;
  return new float[n];
}

void *pinnedAlloc(size_t bytes) {
  void *p = nullptr;
  if (cudaMallocHost(&p, bytes) != cudaSuccess)
    return nullptr;
  return p;
}

void *registeredAlloc(size_t bytes) {
  void *p = malloc(bytes);
  cudaHostRegister(p, bytes, cudaHostRegisterDefault);
  return p;
}

void *eitherAlloc(size_t bytes, bool pin) {
  if (pin)
    return pinnedAlloc(bytes);
  return malloc(bytes);
}

void *recursiveAlloc(size_t bytes) {
  return bytes > 4096 ? recursiveAlloc(bytes / 2) : malloc(bytes);
}

struct Pool {
  float *take(size_t n) { return (float *)malloc(n * sizeof(float)); }
  virtual float *takeVirtual(size_t n) { return (float *)malloc(n * sizeof(float)); }
};

void upload(float *device, size_t n, cudaStream_t stream) {
  float *a = (float *)checkedMalloc(n * sizeof(float));
  cudaMemcpyAsync(device, a, n * sizeof(float), cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{(malloc, returned by 'checkedMalloc')}}
  float *b = hostFloats(n);
  cudaMemcpyAsync(b, device, n * sizeof(float), cudaMemcpyDeviceToHost, stream); // CHECK: pageable-memcpy-async {{to pageable host memory (malloc, returned by 'checkedMalloc', returned by 'hostFloats')}}
  cudaMemcpyAsync(device, newFloats(n), n, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{new[], returned by 'newFloats'}}
  Pool pool;
  cudaMemcpyAsync(device, pool.take(n), n, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{returned by 'Pool::take'}}
}

void negatives(float *device, size_t n, cudaStream_t stream, Pool &pool) {
  float *pinned = (float *)pinnedAlloc(n);
  cudaMemcpyAsync(device, pinned, n, cudaMemcpyHostToDevice, stream);
  cudaMemcpyAsync(device, registeredAlloc(n), n, cudaMemcpyHostToDevice, stream);
  cudaMemcpyAsync(device, eitherAlloc(n, true), n, cudaMemcpyHostToDevice, stream); // pinned or pageable: unknown
  cudaMemcpyAsync(device, recursiveAlloc(n), n, cudaMemcpyHostToDevice, stream); // recursion: unknown
  cudaMemcpyAsync(device, pool.takeVirtual(n), n, cudaMemcpyHostToDevice, stream); // an override may pin
  float *registered = (float *)checkedMalloc(n);
  cudaHostRegister(registered, n, cudaHostRegisterDefault);
  cudaMemcpyAsync(device, registered, n, cudaMemcpyHostToDevice, stream);
}
