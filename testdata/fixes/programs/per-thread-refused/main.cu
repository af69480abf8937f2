// The per-thread default stream is no target here: the program starts a
// host thread, and each thread has its own per-thread stream where the
// legacy stream ordered the work of both.
#include <cuda_runtime.h>
#include <pthread.h>

void legacyStep(float *d, float *h, int n);

void *worker(void *arg) {
  float h[64];
  legacyStep(static_cast<float *>(arg), h, 256);
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
    legacyStep(d, h, 256);
  pthread_join(thread, nullptr);
  cudaStreamDestroy(s);
  return 0;
}
