// alloc-in-loop: buffers declared in the loop body (the declaration moves
// before the loop with the allocation), several buffers of one loop (one fix
// moves them all, the same on each finding), and the loops nothing can be
// placed before. Markers as in alloc-in-loop-hoist.cu (OrderingFixTest);
// the edits are compared with the .fixed golden (FixGoldenTest).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

__global__ void step(float *d) { d[0] += 1.0f; }
__global__ void pair(float *a, const float *b) { a[0] = b[0]; }

// Declared in the body, no initializer; the copy to the host waits.
void declared(int n, size_t bytes, float *h) {
  cudaDeviceSynchronize();
  for (int i = 0; i < n; ++i) {
    float *d;
    cudaMalloc(&d, bytes); // applied
    step<<<1, 1>>>(d);
    cudaMemcpy(h, d, sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d);
  }
}

// Two buffers of one loop: one fix moves both (their frees were the loop's
// only waits for each other's work, so each is judged with the other moved).
void twoBuffers(int n, float *h) {
  cudaDeviceSynchronize();
  for (int i = 0; i < n; ++i) {
    float *a = nullptr;
    float *b = NULL;
    cudaMalloc(&a, 256); // applied
    cudaMalloc(&b, 256); // applied
    pair<<<1, 1>>>(a, b);
    cudaMemcpy(h, a, sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(a);
    cudaFree(b);
  }
}

// The size varies: the declaration moves with the growing buffer.
void growing(int n) {
  cudaDeviceSynchronize();
  for (int i = 1; i <= n; ++i) {
    float *d = 0;
    cudaMalloc(&d, i * sizeof(float)); // applied
    step<<<1, 1>>>(d);
    cudaDeviceSynchronize();
    cudaFree(d);
  }
}

// 'b' stays (read after the loop); 'a' moves alone.
void oneStays(int n) {
  cudaDeviceSynchronize();
  float *b = nullptr;
  for (int i = 0; i < n; ++i) {
    float *a;
    cudaMalloc(&a, 256); // applied
    cudaMalloc(&b, 256); // not applied: 'b' is read after the loop
    pair<<<1, 1>>>(a, b);
    cudaDeviceSynchronize();
    cudaFree(b);
    cudaFree(a);
  }
  if (b == nullptr)
    abort();
}

// Nothing in the loop waits for the launch but the frees: neither moves.
void noWait(int n) {
  cudaDeviceSynchronize();
  for (int i = 0; i < n; ++i) {
    float *a;
    float *b;
    cudaMalloc(&a, 256); // not applied: cudaFree waits for all device work every iteration, and nothing else in the loop waits for the kernel launch
    cudaMalloc(&b, 256); // not applied: cudaFree waits for all device work every iteration, and nothing else in the loop waits for the kernel launch
    pair<<<1, 1>>>(a, b);
    cudaFree(a);
    cudaFree(b);
  }
}

int *produce(int i);

void initialized(int n) {
  for (int i = 0; i < n; ++i) {
    float *d = reinterpret_cast<float *>(produce(i));
    cudaMalloc(&d, 256); // no fix: 'd' is declared inside the loop and its declaration cannot move: it is initialized with a value other than a null pointer
    cudaFree(d);
  }
}

void usedBefore(int n) {
  for (int i = 0; i < n; ++i) {
    float *d = nullptr;
    if (d != nullptr)
      abort();
    cudaMalloc(&d, 256); // no fix: it is used before the allocation in the loop body (line 98)
    cudaFree(d);
  }
}

void sameName(int n, float *h) {
  for (int i = 0; i < n; ++i) {
    float *d;
    cudaMalloc(&d, 256); // no fix: another 'd' is declared in 'sameName' (line 112)
    cudaFree(d);
  }
  for (int i = 0; i < n; ++i) {
    float *d = h;
    d[0] = 0.0f;
  }
}

void twoDeclared(int n) {
  for (int i = 0; i < n; ++i) {
    float *d, *e;
    cudaMalloc(&d, 256); // no fix: its declaration declares other variables too
    cudaFree(d);
    e = nullptr;
  }
}

void sharedLine(int n) {
  for (int i = 0; i < n; ++i) {
    float *d; int k = i;
    cudaMalloc(&d, 256 + 0 * k); // no fix: 'd' is declared inside the loop on a line shared with other code
    cudaFree(d);
  }
}

void unbracedParent(int n, bool run) {
  float *d = nullptr;
  if (run)
    for (int i = 0; i < n; ++i) {
      cudaMalloc(&d, 256); // no fix: the loop is not a statement of a { } block
      cudaFree(d);
    }
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      cudaMalloc(&d, 256); // no fix: the loop is not a statement of a { } block
      cudaFree(d);
    }
}

int main() {
  float h = 0;
  declared(4, 256, &h);
  twoBuffers(4, &h);
  growing(4);
  oneStays(4);
  noWait(4);
  usedBefore(2);
  sameName(2, &h);
  twoDeclared(2);
  sharedLine(2);
  unbracedParent(2, true);
  return 0;
}
