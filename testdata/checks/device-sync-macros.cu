// device-sync: `do { ... } while (0)` error-check macros and `while (false)`
// run once; they are straight-line code, not loops.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                      \
  do {                                                                        \
    cudaError_t status_ = (call);                                             \
    if (status_ != cudaSuccess) {                                             \
      fprintf(stderr, "%s\n", cudaGetErrorString(status_));                  \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

// A checker that synchronizes in its body, as many projects' do.
#define SYNC_CHECK()                                                          \
  do {                                                                        \
    CUDA_CHECK(cudaGetLastError());                                           \
    CUDA_CHECK(cudaDeviceSynchronize());                                      \
  } while (false)

__global__ void kernel(float *data) { data[0] = 1.0f; }

void setup() {
  CUDA_CHECK(cudaDeviceSynchronize()); // CHECK: device-sync(note) {{not on a hot path}}
  SYNC_CHECK(); // CHECK: device-sync(note) {{not on a hot path}}
}

void plainOnce() {
  do {
    cudaDeviceSynchronize(); // CHECK: device-sync(note)
  } while (0);
  while (false)
    cudaDeviceSynchronize(); // CHECK: device-sync(note)
  for (; 0;)
    cudaDeviceSynchronize(); // CHECK: device-sync(note)
}

void train(float *d, int steps) {
  for (int step = 0; step < steps; ++step) {
    kernel<<<1, 1>>>(d);
    CUDA_CHECK(cudaDeviceSynchronize()); // CHECK: device-sync {{inside the loop at line 41}}
    SYNC_CHECK(); // CHECK: device-sync {{inside the loop at line 41}}
  }
}

// A do-while(0) around a real loop: the for loop is what repeats.
void nested(float *d, int n) {
  do {
    for (int i = 0; i < n; ++i)
      cudaDeviceSynchronize(); // CHECK: device-sync {{inside the loop at line 51}}
  } while (0);
}

// A real do-while still repeats.
void repeats(int n) {
  do {
    CUDA_CHECK(cudaDeviceSynchronize()); // CHECK: device-sync {{inside the loop at line 58}}
  } while (--n > 0);
}

// Reached from a loop only through a function called inside a macro.
void step() {
  CUDA_CHECK(cudaDeviceSynchronize()); // CHECK: device-sync {{called from the loop at line 69 through step}}
}
void once() { CUDA_CHECK(cudaMemset(nullptr, 0, 0)); } // CHECK: device-sync(note)
void run(int n) {
  for (int i = 0; i < n; ++i)
    step();
  once();
}

// In a template, the macro is straight-line code too.
template <typename T> void inTemplate(T *d) {
  CUDA_CHECK(cudaMemset(d, 0, sizeof(T))); // CHECK: device-sync(note) {{not on a hot path}}
}
template void inTemplate<float>(float *);
