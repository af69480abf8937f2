// Program B: it starts a host thread, and each thread has its own
// per-thread stream where the legacy stream ordered the work of both.
#include <cuda_runtime.h>
#include <pthread.h>

__global__ void half(float *d) { d[0] *= 0.5f; }

void threadedStep(float *d, float *h, int n) {
  half<<<1, 64>>>(d); // not applied: the program starts host threads (pthread_create at threaded.cu:
  cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); // not applied: the program starts host threads
}

void *worker(void *arg) {
  float h[64];
  threadedStep(static_cast<float *>(arg), h, 256);
  return nullptr;
}

int main() {
  float *d, h[64];
  cudaMalloc(&d, 256);
  cudaStream_t s;
  cudaStreamCreate(&s);
  pthread_t thread;
  pthread_create(&thread, nullptr, worker, d);
  for (int i = 0; i < 10; ++i)
    threadedStep(d, h, 256);
  pthread_join(thread, nullptr);
  cudaStreamDestroy(s);
  return 0;
}
