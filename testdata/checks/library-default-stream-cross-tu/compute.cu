#include "handles.cuh"

void useBlas(const float *x, float *y, int n) {
  const float one = 1.0f;
  cublasSaxpy(g_blas, n, &one, x, 1, y, 1);
}

void useBound(const float *x, float *y, int n) {
  const float one = 1.0f;
  cublasSaxpy(g_boundLater, n, &one, x, 1, y, 1);
}

void runPlan(cufftReal *in, cufftComplex *out, cudaStream_t s) {
  cufftSetStream(g_plan, s);
  cufftExecR2C(g_plan, in, out);
}

void saxpyWith(cublasHandle_t h, const float *x, float *y, int n) {
  const float one = 1.0f;
  cublasSaxpy(h, n, &one, x, 1, y, 1);
}

void Engine::run(const float *x, float *y, int n) {
  const float one = 1.0f;
  cublasSaxpy(handle_, n, &one, x, 1, y, 1);
}

void BoundEngine::run(const float *x, float *y, int n) {
  const float one = 1.0f;
  cublasSaxpy(handle_, n, &one, x, 1, y, 1);
}
