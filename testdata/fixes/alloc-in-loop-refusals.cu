// alloc-in-loop: where moving the allocation out of the loop could change
// what the program computes, the fix stays a suggestion that names why
// ("// not applied: <reason>"), or there is no fix and a note says why
// ("// no fix: <reason>"). Checked by tests/checks/OrderingFixTest.cpp.
#include <cuda_runtime.h>

#include <cstdlib>

__global__ void step(float *d) { d[0] += 1.0f; }

float *kept[8];
float *global;

// The free is the only wait for the launch.
void noWait(int n) {
  cudaDeviceSynchronize();
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&d, 256); // not applied: cudaFree waits for all device work every iteration, and nothing else in the loop waits for the kernel launch at line 20
    step<<<1, 1>>>(d);
    cudaFree(d);
  }
}

// The first free waited for whatever the callers left running.
void callersWork(int n, float *h) {
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&d, 256); // not applied: nothing else in the loop waits for work its callers issued before calling 'callersWork'
    cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost);
    cudaFree(d);
  }
}

void escapes(int n) {
  cudaDeviceSynchronize();
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&d, 256); // not applied: the pointer escapes the loop: 'd' is stored in a variable declared outside it (line 40)
    kept[i] = d;
    cudaDeviceSynchronize();
    cudaFree(d);
  }
}

int returns(int n) {
  cudaDeviceSynchronize();
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    if (i == 3)
      return 1;
    cudaMalloc(&d, 256); // not applied: the loop body can leave the function (return at line 51): the buffer allocated before the loop would not be freed
    cudaFree(d);
  }
  return 0;
}

void breaks(int n, bool stop) {
  cudaDeviceSynchronize();
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&d, 256); // not applied: a break between the allocation and the free (line 64) leaves the loop with 'd' still allocated
    if (stop)
      break;
    cudaFree(d);
  }
}

void readAfter(int n) {
  cudaDeviceSynchronize();
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&d, 256); // not applied: 'd' is read after the loop (line 76)
    cudaFree(d);
  }
  if (d == nullptr)
    abort();
}

void conditional(int n, bool big) {
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    if (big)
      cudaMalloc(&d, 1024); // no fix: the allocation cannot move: it does not run every iteration
    cudaFree(d);
  }
}

void stored(int n) {
  float *d = nullptr;
  cudaError_t status = cudaSuccess;
  for (int i = 0; i < n; ++i) {
    status = cudaMalloc(&d, 1024); // no fix: its result is stored in a variable that later code may read
    if (status != cudaSuccess)
      break;
    cudaFree(d);
  }
}

void skipsIteration(int n) {
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    if (cudaMalloc(&d, 1024) != cudaSuccess) continue; // no fix: the error handling of the allocation leaves the iteration
    cudaFree(d);
  }
}

int sizeOf(int i) { return 256 * (i + 1); }

void computedSize(int n) {
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&d, sizeOf(i)); // no fix: the size changes every iteration and calls a function
    cudaFree(d);
  }
}

void reassigned(int n, float *other) {
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&d, 1024); // no fix: 'd' is also assigned in the loop (line 123)
    cudaFree(d);
    d = other;
  }
}

void notLocal(int n) {
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&global, 1024); // no fix: 'global' is not a local variable declared before the loop
    cudaFree(global);
  }
}

void otherBuffer(int n, float *b) {
  float *a = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&a, 1024); // no fix: the loop does not free 'a' with cudaFree in the same iteration
    cudaFree(b);
  }
}

void resets(int n) {
  cudaDeviceSynchronize();
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&d, 1024); // not applied: the loop destroys the CUDA context (line 149), which frees the buffer allocated before the loop
    cudaDeviceSynchronize();
    cudaFree(d);
    cudaDeviceReset();
  }
}

// A template whose instantiations disagree: abs(T) is the C library's for
// int (no device work) and the program's own for Counter (a launch that only
// the free waits for). The loop's one fix must hold in both.
struct Counter {
  int value;
};
int abs(Counter c) {
  step<<<1, 1>>>(kept[0]);
  return c.value;
}
template <typename T> void mixed(int n) {
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&d, 256); // not applied: in 'mixed<Counter>': cudaFree waits for all device work every iteration, and nothing else in the loop waits for the call of 'abs'
    cudaDeviceSynchronize();
    abs(T{1});
    cudaFree(d);
  }
}
template void mixed<int>(int);
template void mixed<Counter>(int);

// A template this file never instantiates: a call that depends on T (here
// 'abs') is resolved only in an instantiation, so nothing here is known.
template <typename T> void neverInstantiated(int n) {
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&d, 256); // not applied: the function is a template this file never instantiates
    cudaDeviceSynchronize();
    abs(T{1});
    cudaFree(d);
  }
}

// Work the free waited for, issued by code the loop hands a standard
// algorithm (the lambda launches), or by a virtual call (any overrider may
// launch).
#include <algorithm>

void throughAlgorithm(int n, float *values) {
  cudaDeviceSynchronize();
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&d, 256); // not applied: nothing else in the loop waits for the call of 'for_each' with code of the program
    std::for_each(values, values + 1, [&](float &) { step<<<1, 1>>>(d); });
    cudaFree(d);
  }
}

struct Stage {
  virtual void run(float *d) = 0;
};

void throughVirtual(int n, Stage &stage) {
  cudaDeviceSynchronize();
  float *d = nullptr;
  for (int i = 0; i < n; ++i) {
    cudaMalloc(&d, 256); // not applied: nothing else in the loop waits for the virtual call of 'run'
    stage.run(d);
    cudaFree(d);
  }
}
