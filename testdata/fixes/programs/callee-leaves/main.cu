// Calls of user functions defined in produce.cu, each followed (in a loop,
// as HeCBench lfib4's main) by a synchronous copy to the host that
// device-sync makes Async on cudaStreamPerThread (main uses no stream
// variable; the program creates streams). The copy then waits only for the
// per-thread stream, which waits for earlier legacy-stream work: what the
// callee leaves pending at its return decides. Each loop ends with a
// device-wide wait, so only its own callee is pending in it.
#include <cuda_runtime.h>

void produce(unsigned *d);
void produceCreated(unsigned *d);
void produceNonBlocking(unsigned *d);
void produceOn(unsigned *d, cudaStream_t s);
void produceRecursive(unsigned *d, int n);
void produceElsewhere(unsigned *d); // defined in no file of the program
cudaStream_t makeStream();

int main() {
  unsigned *d, h[8];
  cudaMalloc(&d, 256);
  for (int r = 0; r < 2; ++r) {
    produce(d);
    cudaMemcpy(h, d, 32, cudaMemcpyDeviceToHost); // applied
  }
  cudaDeviceSynchronize();
  for (int r = 0; r < 2; ++r) {
    produceCreated(d);
    cudaMemcpy(h, d, 32, cudaMemcpyDeviceToHost); // not applied: the call of 'produceCreated' at line 27, which may return with the kernel launch at produce.cu:28 (stream 'a') still running
  }
  cudaDeviceSynchronize();
  for (int r = 0; r < 2; ++r) {
    produceNonBlocking(d);
    cudaMemcpy(h, d, 32, cudaMemcpyDeviceToHost); // not applied: the call of 'produceNonBlocking' at line 32, which may return with the kernel launch at produce.cu:35 (stream 'a') still running
  }
  cudaDeviceSynchronize();
  for (int r = 0; r < 2; ++r) {
    produceOn(d, makeStream());
    cudaMemcpy(h, d, 32, cudaMemcpyDeviceToHost); // not applied: the call of 'produceOn' at line 37, which may return with the kernel launch at produce.cu:39 (stream 's') still running
  }
  cudaDeviceSynchronize();
  for (int r = 0; r < 2; ++r) {
    produceRecursive(d, 2);
    cudaMemcpy(h, d, 32, cudaMemcpyDeviceToHost); // not applied: the call of 'produceRecursive' at line 42, which is recursive
  }
  cudaDeviceSynchronize();
  for (int r = 0; r < 2; ++r) {
    produceElsewhere(d);
    cudaMemcpy(h, d, 32, cudaMemcpyDeviceToHost); // not applied: the call of 'produceElsewhere' at line 47, whose definition is not in the analyzed program
  }
  cudaDeviceSynchronize();
  cudaFree(d);
  return 0;
}
