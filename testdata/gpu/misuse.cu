// Each stream misuse next to its correct counterpart. A `// PROBE:` comment
// names what the run-time probe must report for the call on that line;
// run_gpu_e2e.sh checks every one. The output (a checksum) must not change
// under the probe. Every finding streamlint reports in this file, and every
// misuse the probe sees in it, must carry a marker (check_expectations.py).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

float *opaqueHostBuffer(size_t bytes); // helper.cu: pageable, invisible here

__global__ void scale(float *x, int n, float f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] = x[i] * f + 1.0f;
}

static void CUDART_CB freeInCallback(void *ptr) {
  cudaError_t err = cudaFree(ptr); // PROBE: api-in-host-callback=confirmed
  // A call no other check reads: the probe subscribes to it only once a host
  // function is registered (runtime_probe/CallbackSelection.h).
  int device = -1;
  cudaGetDevice(&device); // PROBE: api-in-host-callback=confirmed
  std::printf("callback cudaFree returned %d\n", (int)err);
}

// Registered as a host callback, but in the tests only called directly from
// main: the static finding is refuted at run time.
static void CUDART_CB freeLater(void *ptr) {
  cudaFree(ptr); // PROBE: api-in-host-callback=refuted
}

// Registered in a branch that never runs.
static void CUDART_CB neverRuns(void *ptr) {
  cudaFree(ptr); // PROBE: api-in-host-callback=not-reached
}

int main(int argc, char **argv) {
  const int n = 1 << 16;
  const size_t bytes = n * sizeof(float);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  float *d = nullptr;
  cudaMalloc(&d, bytes); // PROBE: alloc-in-loop=none
  cudaMemset(d, 0, bytes); // PROBE: device-sync=confirmed (synchronous, legacy stream)

  for (int it = 0; it < 100; ++it)
    scale<<<n / 256, 256>>>(d, n, 1.0f); // PROBE: default-stream=confirmed
  for (int it = 0; it < 100; ++it)
    scale<<<n / 256, 256, 0, s>>>(d, n, 0.5f); // PROBE: default-stream=none
  if (argc > 5) // never true in the tests
    scale<<<n / 256, 256>>>(d, n, 2.0f); // PROBE: default-stream=not-reached

  float *pageable = static_cast<float *>(std::malloc(bytes));
  float *pinned = nullptr;
  cudaMallocHost(&pinned, bytes); // PROBE: alloc-in-loop=none
  for (int it = 0; it < 4; ++it) {
    cudaMemcpyAsync(pageable, d, bytes, cudaMemcpyDeviceToHost, s); // PROBE: pageable-memcpy-async=confirmed
    cudaMemcpyAsync(pinned, d, bytes, cudaMemcpyDeviceToHost, s); // PROBE: pageable-memcpy-async=none
  }
  if (argc > 5) // never true in the tests
    cudaMemcpyAsync(pageable, d, bytes, cudaMemcpyDeviceToHost, s); // PROBE: pageable-memcpy-async=not-reached
  cudaMemcpyAsync(pinned, d, bytes, cudaMemcpyDeviceToHost); // PROBE: default-stream=confirmed
  float *opaque = opaqueHostBuffer(bytes);
  cudaMemcpyAsync(opaque, d, bytes, cudaMemcpyDeviceToHost, s); // PROBE: pageable-memcpy-async=runtime-only
  cudaStreamSynchronize(s); // PROBE: device-sync=none (its own stream: the fix, not the misuse)

  for (int it = 0; it < 10; ++it) {
    float *tmp = nullptr;
    cudaMalloc(&tmp, bytes); // PROBE: alloc-in-loop=confirmed
    scale<<<n / 256, 256, 0, s>>>(tmp, n, 1.0f);
    cudaDeviceSynchronize(); // PROBE: device-sync=confirmed
    if (argc > 5) // never true in the tests
      cudaDeviceSynchronize(); // PROBE: device-sync=not-reached
    cudaFree(tmp); // PROBE: alloc-in-loop=confirmed
  }
  // A churning loop that runs once in the tests (argc == 1), and one that
  // never runs: the static warnings are refuted and not reached.
  for (int it = 0; it < argc; ++it) {
    float *once = nullptr;
    cudaMalloc(&once, bytes); // PROBE: alloc-in-loop=refuted
    cudaFree(once); // PROBE: alloc-in-loop=refuted
  }
  for (int it = 1; it < argc; ++it) {
    float *never = nullptr;
    cudaMalloc(&never, bytes); // PROBE: alloc-in-loop=not-reached
    cudaFree(never); // PROBE: alloc-in-loop=not-reached
  }

  float *victim = nullptr;
  cudaMalloc(&victim, 256);
  cudaLaunchHostFunc(s, freeInCallback, victim);
  cudaStreamSynchronize(s); // PROBE: device-sync=none
  float *later = nullptr;
  cudaMalloc(&later, 256);
  if (argc > 5) { // never true in the tests
    cudaLaunchHostFunc(s, freeLater, later);
    cudaLaunchHostFunc(s, neverRuns, later);
  } else {
    freeLater(later);
  }

  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += pinned[i] + pageable[i] + opaque[i];
  std::printf("checksum %.3f\n", sum);
  std::free(pageable);
  std::free(opaque);
  cudaFreeHost(pinned);
  cudaFree(d);
  cudaStreamDestroy(s);
  return 3; // a distinctive exit code the launcher must pass through
}
