// alloc-in-loop: branches that do not repeat with their loop. Error handling
// (a status compared with success, or tested as a truth value), lazy
// initialization (`if (!p) p = ...`) and branches that leave the function run
// at most once per run of the loop: their allocations and frees are not on
// the hot path, and do not make a loop "allocate and free" (ggml's set-up
// loops that free everything when one allocation fails, its lazily created
// cuBLAS workspaces).
#include <cstdlib>
#include <cuda_runtime.h>

struct Staging {
  float *host = nullptr;
  cudaError_t alloc(size_t bytes) {
    cudaError_t rc = cudaMallocHost(&host, bytes);
    if (rc != cudaSuccess)
      return rc;
    float *probe = nullptr;
    rc = cudaMalloc(&probe, 16);
    if (rc != cudaSuccess) {
      cudaFreeHost(host); // error handling: not this function's steady state
      host = nullptr;
    }
    return rc;
  }
};

void releaseAll(Staging *s, int n) {
  for (int i = 0; i < n; ++i)
    cudaFreeHost(s[i].host); // frees only: the loop does not churn
}

// A set-up loop: allocates once per buffer; frees only on the way out.
bool setUp(Staging *s, int n, float **device) {
  for (int i = 0; i < n; ++i) {
    if (s[i].alloc(1 << 20) != cudaSuccess) {
      releaseAll(s, n);
      return false;
    }
    if (cudaMalloc(&device[i], 1 << 20) != cudaSuccess) {
      releaseAll(s, n);
      return false;
    }
  }
  return true;
}

struct Context {
  float *workspace[4] = {};
  int device = 0;
  float *scratch() {
    if (workspace[device] == nullptr)
      cudaMalloc(&workspace[device], 1 << 20); // lazy: once per device
    return workspace[device];
  }
};

void kernelStep(Context &c) {
  float *tmp = nullptr;
  cudaMalloc(&tmp, 256); // CHECK: alloc-in-loop {{called from the loop at line 70}}
  c.scratch();
  cudaError_t err = cudaGetLastError();
  if (err) {
    cudaFree(tmp); // error handling, tested as a truth value
    std::exit(1);
  }
  cudaFree(tmp); // CHECK: alloc-in-loop {{called from the loop at line 70}}
}

void train(Context &c, int steps) {
  for (int i = 0; i < steps; ++i)
    kernelStep(c);
}

void drain(float **buffers, int n) {
  for (int i = 0; i < n; ++i) {
    float *b = buffers[i]; // declared in the loop: `if (!b)` is not lazy
    if (b == nullptr) {
      cudaMalloc(&b, 64); // CHECK: alloc-in-loop {{inside the loop at line 75}}
      cudaFree(b);        // CHECK: alloc-in-loop {{inside the loop at line 75}}
    }
  }
}

// Statuses combined with || and &&, or compared with each other
// (cuda-samples' batchCUBLAS: `if ((err1 != cudaSuccess) || (err2 !=
// cudaSuccess) || (err3 != cudaSuccess)) { CLEANUP(); return ...; }` and
// `(status2 != status1)`): the branch runs when a call failed.
void uploadBoth(float **device, const float *host) {
  float *tmp = nullptr;
  cudaMalloc(&tmp, 64); // CHECK: alloc-in-loop {{called from the loop at line 109}}
  cudaError_t first = cudaMemcpy(device[0], host, 64, cudaMemcpyHostToDevice);
  cudaError_t second = cudaMemcpy(device[1], host, 64, cudaMemcpyHostToDevice);
  if ((first != cudaSuccess) || (second != first)) {
    cudaFree(tmp); // error handling: one of the copies failed
    return;
  }
  if (first == cudaSuccess && second == cudaSuccess) {
    device[2] = tmp;
  } else {
    cudaFree(tmp); // error handling: not both succeeded
  }
  // Not error handling: `first` may be success while it differs from a
  // constant that is not.
  if (first != cudaErrorNotPermitted || second == cudaErrorNotPermitted)
    cudaFree(tmp); // CHECK: alloc-in-loop {{called from the loop at line 109}}
}

void uploadAll(float **device, const float *host, int n) {
  for (int i = 0; i < n; ++i)
    uploadBoth(device + 3 * i, host);
}

// cuBLAS' status is an anonymous enum its typedef names (`typedef enum {
// ... } cublasStatus_t;`): batchCUBLAS's `if (status1 !=
// CUBLAS_STATUS_SUCCESS) { CLEANUP(); ... }` is error handling too.
#include <cublas_v2.h>

void createAndUse(float **scratch) {
  float *tmp = nullptr;
  cudaMalloc(&tmp, 64); // CHECK: alloc-in-loop {{called from the loop at line 132}}
  cublasHandle_t handle;
  cublasStatus_t status = cublasCreate_v2(&handle);
  if (status != CUBLAS_STATUS_SUCCESS) {
    cudaFree(tmp); // error handling
    return;
  }
  cublasDestroy_v2(handle);
  cudaFree(tmp); // CHECK: alloc-in-loop {{called from the loop at line 132}}
}

void createEach(float **scratch, int n) {
  for (int i = 0; i < n; ++i)
    createAndUse(scratch + i);
}
