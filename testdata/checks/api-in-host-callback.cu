// api-in-host-callback: CUDA API calls reached from host callbacks.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdio>

#define CHECK(call) (void)(call)

__global__ void kernel(float *data) { data[0] = 1.0f; }

// Registered by name: a direct call and one through a helper.
void release(void *p) {
  cudaFree(p); // CHECK: api-in-host-callback {{through release}}
}
void CUDART_CB onDone(void *data) {
  CHECK(cudaMalloc(&data, 4)); // CHECK: api-in-host-callback {{in host callback 'onDone' registered with cudaLaunchHostFunc at line 46}}
  release(data);
  kernel<<<1, 1>>>(static_cast<float *>(data)); // CHECK: api-in-host-callback {{kernel launch}}
}

// cudaStreamAddCallback with &f; a static member function.
void CUDART_CB legacyCallback(cudaStream_t stream, cudaError_t, void *) {
  cudaStreamSynchronize(stream); // CHECK: api-in-host-callback {{cudaStreamAddCallback}}
}
struct Worker {
  static void CUDART_CB finish(void *) { cudaDeviceSynchronize(); } // CHECK: api-in-host-callback
};

// Only host work: fine, including cuComplex arithmetic and error strings.
struct Progress { int done = 0; };
void CUDART_CB hostOnly(void *data) {
  static_cast<Progress *>(data)->done++;
  std::printf("%s\n", cudaGetErrorString(cudaSuccess));
}

// A user function merely named like the driver API is not CUDA.
void cuLogEvent(const char *) {}
void CUDART_CB logs(void *) { cuLogEvent("done"); }

// Driver API registration and a driver call inside.
void CUDA_CB driverCallback(void *) {
  cuCtxSynchronize(); // CHECK: api-in-host-callback {{cuLaunchHostFunc}}
}

void enqueue(cudaStream_t s, CUstream cs, Progress *progress) {
  cudaLaunchHostFunc(s, onDone, nullptr);
  cudaStreamAddCallback(s, &legacyCallback, nullptr, 0);
  cudaLaunchHostFunc(s, &Worker::finish, nullptr);
  cudaLaunchHostFunc(s, hostOnly, progress);
  cudaLaunchHostFunc(s, logs, nullptr);
  cuLaunchHostFunc(cs, driverCallback, nullptr);
}

// A non-capturing lambda; a resolvable function pointer variable.
void fromPointer(void *) {
  cudaEventQuery(nullptr); // CHECK: api-in-host-callback {{fromPointer}}
}
void lambdas(cudaStream_t s) {
  cudaLaunchHostFunc(
      s, [](void *) { cudaGetLastError(); }, nullptr); // CHECK: api-in-host-callback
  cudaHostFn_t fn = fromPointer;
  cudaLaunchHostFunc(s, fn, nullptr);
}

// Unresolved function pointers end the chain silently; a virtual call
// reaches the method it names and every overrider.
void notResolved(void *) { cudaDeviceSynchronize(); }
void unresolved(cudaStream_t s, cudaHostFn_t chosen) {
  cudaLaunchHostFunc(s, chosen, nullptr);
  cudaHostFn_t reassigned = notResolved;
  reassigned = chosen;
  cudaLaunchHostFunc(s, reassigned, nullptr);
}
struct Task {
  virtual void run() { cudaDeviceSynchronize(); } // CHECK: api-in-host-callback {{through Task::run}}
  virtual ~Task() = default;
};
void CUDART_CB runTask(void *task) { static_cast<Task *>(task)->run(); }
void enqueueTask(cudaStream_t s, Task *task) { cudaLaunchHostFunc(s, runTask, task); }

// Recursion terminates.
void countdown(int n) {
  if (n > 0)
    countdown(n - 1);
  cudaFree(nullptr); // CHECK: api-in-host-callback {{through countdown}}
}
void CUDART_CB recursive(void *) { countdown(3); }
void enqueueRecursive(cudaStream_t s) { cudaLaunchHostFunc(s, recursive, nullptr); }
