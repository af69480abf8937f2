// device-sync: device-wide synchronization; warnings on hot paths, notes elsewhere.
#include <cuda_runtime.h>

__global__ void kernel(float *data) { data[0] = 1.0f; }
__device__ float symbol[4];

#define CHECK(call) (void)(call)

void once() {
  cudaDeviceSynchronize(); // CHECK: device-sync(note) {{not on a hot path}}
}

void inLoop(float *d, float *h, int n) {
  for (int i = 0; i < n; ++i) {
    kernel<<<1, 1>>>(d);
    cudaDeviceSynchronize(); // CHECK: device-sync {{inside the loop at line 14}}
    cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost); // CHECK: device-sync {{synchronous cudaMemcpy}}
    cudaMemset(d, 0, 4); // CHECK: device-sync
    CHECK(cudaStreamSynchronize(0)); // CHECK: device-sync {{legacy default stream}}
    cudaStreamSynchronize(cudaStreamLegacy); // CHECK: device-sync
  }
}

void whileAndDo(float *d, int n) {
  while (n-- > 0)
    cudaMemcpyToSymbol(symbol, d, 4); // CHECK: device-sync {{inside the loop at line 25}}
  do {
    cudaMemset2D(d, 4, 0, 4, 1); // CHECK: device-sync
  } while (n++ < 3);
}

void notDeviceWide(cudaStream_t s, cudaEvent_t e, float *d, float *h) {
  for (int i = 0; i < 4; ++i) {
    cudaStreamSynchronize(s);
    cudaStreamSynchronize(cudaStreamPerThread);
    cudaEventSynchronize(e);
    cudaMemcpyAsync(h, d, 4, cudaMemcpyDeviceToHost, s);
  }
}

// Reached from a loop through calls in this TU: warning with the chain.
void step() {
  cudaDeviceSynchronize(); // CHECK: device-sync {{called from the loop at line 48 through helper -> step}}
}
void helper() { step(); }

void driver(int n) {
  for (int i = 0; i < n; ++i)
    helper();
}

// Recursion terminates; the loop reaches the recursive function.
void recursive(int depth) {
  if (depth > 0)
    recursive(depth - 1);
  cudaMemset(nullptr, 0, 0); // CHECK: device-sync {{through recursive}}
}
void callsRecursive() {
  for (int i = 0; i < 2; ++i)
    recursive(i);
}

// A virtual call reaches the method it names and every overrider (class
// hierarchy analysis); function pointers end the chain silently: a note.
struct Base {
  virtual void run() { cudaDeviceSynchronize(); } // CHECK: device-sync {{called from the loop at line 70 through Base::run}}
  virtual ~Base() = default;
};
void viaVirtual(Base &b) {
  for (int i = 0; i < 2; ++i)
    b.run();
}
void pointed() { cudaDeviceSynchronize(); } // CHECK: device-sync(note)
void viaPointer(void (*fp)()) {
  for (int i = 0; i < 2; ++i)
    fp();
}

// Templates and lambdas.
template <typename T> void syncIn(T *d, int n) {
  for (int i = 0; i < n; ++i)
    cudaMemcpy(d, d + 1, sizeof(T), cudaMemcpyDeviceToDevice); // CHECK: device-sync
}
template void syncIn<float>(float *, int);

void lambdas(int n) {
  auto sync = [] { cudaDeviceSynchronize(); }; // CHECK: device-sync {{called from the loop at line 88}}
  for (int i = 0; i < n; ++i)
    sync();
}
