#include "handles.cuh"

void setStreams(cudaStream_t s) { cublasSetStream(g_boundLater, s); }

void bindWith(cublasHandle_t h, cudaStream_t s) { cublasSetStream(h, s); }

void forwardTo(cublasHandle_t h, const float *x, float *y, int n) { saxpyWith(h, x, y, n); }

// BoundEngine's handle is bound here, in another file than its constructor.
void BoundEngine::bind(cudaStream_t s) { cublasSetStream(handle_, s); }
