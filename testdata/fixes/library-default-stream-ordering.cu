// library-default-stream's fixes that move one call (a CUB, NCCL or cuBLASLt
// stream argument) follow the ordering rules of docs/fixes.md. "// applied"
// and "// not applied: <reason>" are checked by tests/checks/OrderingFixTest.cpp;
// the golden is library-default-stream-ordering.cu.fixed.
#include <cub/cub.cuh>
#include <cuda_runtime.h>

__global__ void fill(int *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    data[i] = 1;
}

// A blocking target: the legacy-stream copy after the reduction still waits
// for it once it runs on s.
int blockingTarget(int *in, int *out, void *temp, size_t bytes, int n) {
  int host = 0;
  cudaDeviceSynchronize(); // nothing issued before this point is pending
  cudaStream_t s;
  cudaStreamCreate(&s);
  fill<<<n / 256, 256, 0, s>>>(in, n);
  cub::DeviceReduce::Sum(temp, bytes, in, out, n); // applied
  cudaMemcpy(&host, out, sizeof(int), cudaMemcpyDeviceToHost);
  cudaStreamDestroy(s);
  return host;
}

// A non-blocking target: nothing would order the reduction before the
// legacy-stream copy that reads its result, so the fix waits for s1 first.
int nonBlockingTarget(int *in, int *out, void *temp, size_t bytes, int n) {
  int host = 0;
  cudaDeviceSynchronize();
  cudaStream_t s1;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  fill<<<n / 256, 256, 0, s1>>>(in, n);
  cub::DeviceReduce::Sum(temp, bytes, in, out, n, 0); // applied
  cudaMemcpy(&host, out, sizeof(int), cudaMemcpyDeviceToHost);
  cudaStreamDestroy(s1);
  return host;
}

// The dependent work is in the caller: the reduction would still be running
// on s2 when this returns.
void inFlight(int *in, int *out, void *temp, size_t bytes, int n) {
  cudaDeviceSynchronize();
  cudaStream_t s2;
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  fill<<<n / 256, 256, 0, s2>>>(in, n);
  cub::DeviceReduce::Sum(temp, bytes, in, out, n); // not applied: returns to its callers with this work possibly still running
}

int main() {
  const int n = 1 << 10;
  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  void *temp = nullptr;
  size_t bytes = 0;
  cub::DeviceReduce::Sum(temp, bytes, in, out, n); // the size query launches nothing
  cudaMalloc(&temp, bytes);
  int a = blockingTarget(in, out, temp, bytes, n);
  int b = nonBlockingTarget(in, out, temp, bytes, n);
  __builtin_printf("%d %d\n", a, b);
  return a == n && b == n ? 0 : 1;
}
