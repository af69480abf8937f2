// HeCBench base64e's shape: a function issues its work on an array of
// streams in one loop and waits for them in a later loop with the same
// header, in every iteration of an outer loop; the function called next
// (sequences.cu) has synchronous legacy-stream copies. Each pair is
// separated by a device-wide wait, so only the first call is pending at
// the second.
#include <cuda_runtime.h>

void multi(unsigned char *d, unsigned char *h, int cycles);
void one(unsigned char *d, unsigned char *h, int cycles);
void multiRange(unsigned char *d, unsigned char *h, int cycles);
void oneAfterRange(unsigned char *d, unsigned char *h, int cycles);
void multiOtherArray(unsigned char *d, unsigned char *h, int cycles);
void oneAfterOtherArray(unsigned char *d, unsigned char *h, int cycles);
void multiDestroyed(unsigned char *d, unsigned char *h, int cycles);
void oneAfterDestroyed(unsigned char *d, unsigned char *h, int cycles);
void multiBoundWritten(unsigned char *d, unsigned char *h, int cycles, int count);
void oneAfterBoundWritten(unsigned char *d, unsigned char *h, int cycles);
void multiThenCopy(unsigned char *d, unsigned char *h);
void multiRangeThenCopy(unsigned char *d, unsigned char *h);

int main() {
  unsigned char *d, *h;
  cudaMalloc(&d, 1024);
  cudaMallocHost(&h, 1024);
  multi(d, h, 4);
  one(d, h, 4);
  cudaDeviceSynchronize();
  multiRange(d, h, 4);
  oneAfterRange(d, h, 4);
  cudaDeviceSynchronize();
  multiOtherArray(d, h, 4);
  oneAfterOtherArray(d, h, 4);
  cudaDeviceSynchronize();
  multiDestroyed(d, h, 4);
  oneAfterDestroyed(d, h, 4);
  cudaDeviceSynchronize();
  multiBoundWritten(d, h, 4, 4);
  oneAfterBoundWritten(d, h, 4);
  cudaDeviceSynchronize();
  multiThenCopy(d, h);
  cudaDeviceSynchronize();
  multiRangeThenCopy(d, h);
  cudaDeviceSynchronize();
  __builtin_printf("%u\n", h[0]);
  return 0;
}
