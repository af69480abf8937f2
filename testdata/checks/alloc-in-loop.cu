// alloc-in-loop: allocations and frees that churn every iteration.
#include <cuda_runtime.h>

#define CHECK(call) (void)(call)

__global__ void kernel(float *data) { data[0] = 1.0f; }

void churn(int n, size_t bytes) {
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&d, bytes); // CHECK: alloc-in-loop {{inside the loop at line 10}}
    kernel<<<1, 1>>>(d);
    cudaFree(d); // CHECK: alloc-in-loop {{'cudaFree' frees every iteration}}
  }
}

void pinned(int n) {
  float *h = nullptr;
  for (int i = 0; i < n; ++i) {
    CHECK(cudaMallocHost(&h, 64)); // CHECK: alloc-in-loop {{pinning}}
    CHECK(cudaFreeHost(h)); // CHECK: alloc-in-loop
    cudaHostAlloc((void **)&h, 64, cudaHostAllocDefault); // CHECK: alloc-in-loop
    cudaFreeHost(h); // CHECK: alloc-in-loop
  }
}

void registerEach(float *host, int n) {
  while (n-- > 0) {
    cudaHostRegister(host, 64, cudaHostRegisterDefault); // CHECK: alloc-in-loop
    cudaHostUnregister(host); // CHECK: alloc-in-loop
  }
}

void managedAndPitch(int n) {
  for (int i = 0; i < n; ++i) {
    float *m = nullptr;
    void *p = nullptr;
    size_t pitch = 0;
    cudaMallocManaged(&m, 64); // CHECK: alloc-in-loop
    cudaMallocPitch(&p, &pitch, 64, 4); // CHECK: alloc-in-loop
    cudaFree(m); // CHECK: alloc-in-loop
    cudaFree(p); // CHECK: alloc-in-loop
  }
}

// Set-up loop (one buffer per element) and its teardown loop: fine.
void setUpAndTearDown(float **buffers, int n) {
  for (int i = 0; i < n; ++i)
    cudaMalloc(&buffers[i], 64);
  for (int i = 0; i < n; ++i)
    cudaFree(buffers[i]);
}

// ... but the same inside an outer loop that does both churns per epoch.
void perEpoch(float **buffers, int n, int epochs) {
  for (int e = 0; e < epochs; ++e) {
    for (int i = 0; i < n; ++i)
      cudaMalloc(&buffers[i], 64); // CHECK: alloc-in-loop {{inside the loop at line 56}}
    for (int i = 0; i < n; ++i)
      cudaFree(buffers[i]); // CHECK: alloc-in-loop {{inside the loop at line 56}}
  }
}

// Stream-ordered allocation is the fix, not a finding.
void asyncAlloc(cudaStream_t s, int n) {
  for (int i = 0; i < n; ++i) {
    float *d = nullptr;
    cudaMallocAsync(&d, 64, s);
    cudaFreeAsync(d, s);
  }
}

// Outside loops: nothing.
void once() {
  float *d = nullptr;
  cudaMalloc(&d, 64);
  cudaFree(d);
}

// Through calls in this TU: the loop allocates and frees via helpers.
float *acquire(size_t bytes) {
  float *d = nullptr;
  cudaMalloc(&d, bytes); // CHECK: alloc-in-loop {{called from the loop at line 88 through acquire}}
  return d;
}
void release(float *d) { cudaFree(d); } // CHECK: alloc-in-loop {{through release}}
void viaHelpers(int n) {
  for (int i = 0; i < n; ++i) {
    float *d = acquire(64);
    release(d);
  }
}

// An RAII buffer constructed in the loop body: constructor and destructor.
struct DeviceBuffer {
  explicit DeviceBuffer(size_t bytes) { cudaMalloc(&data, bytes); } // CHECK: alloc-in-loop
  ~DeviceBuffer() { cudaFree(data); } // CHECK: alloc-in-loop
  float *data = nullptr;
};
void raii(int n) {
  for (int i = 0; i < n; ++i) {
    DeviceBuffer buffer(64);
    kernel<<<1, 1>>>(buffer.data);
  }
}

// Templates and lambdas.
template <typename T> void typed(int n) {
  for (int i = 0; i < n; ++i) {
    T *d = nullptr;
    cudaMalloc(&d, sizeof(T)); // CHECK: alloc-in-loop
    cudaFree(d); // CHECK: alloc-in-loop
  }
}
template void typed<double>(int);

void lambda(int n) {
  auto scratch = [] { // a set-up helper alone would be fine; this one churns
    void *p = nullptr;
    cudaMalloc(&p, 8); // CHECK: alloc-in-loop
    cudaFree(p); // CHECK: alloc-in-loop
  };
  for (int i = 0; i < n; ++i)
    scratch();
}
