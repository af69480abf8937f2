#include "handles.cuh"

cublasHandle_t g_blas;
cublasHandle_t g_boundLater;
cufftHandle g_plan;

void initHandles() {
  cublasCreate(&g_blas);                             // CHECK: library-default-stream {{cuBLAS handle 'g_blas' does work before any stream is bound}} [[cublasSaxpy runs on the default stream here]]
  cublasCreate(&g_boundLater);                       // bound in stream.cu: quiet
  cufftPlan1d(&g_plan, 1024, CUFFT_R2C, 1);          // bound in compute.cu before its work: quiet
}

// A local handle handed to a helper another file defines.
void localThroughHelper(const float *x, float *y, int n) {
  cublasHandle_t h;
  cublasCreate(&h);                                  // CHECK: library-default-stream {{cuBLAS handle 'h' does work before}} [['saxpyWith' does work with 'h' on the default stream]]
  saxpyWith(h, x, y, n);
}

// Bound by a helper in another file first: quiet.
void localBoundByHelper(const float *x, float *y, int n, cudaStream_t s) {
  cublasHandle_t h;
  cublasCreate(&h);
  bindWith(h, s);
  saxpyWith(h, x, y, n);
}

// Passed on through two files (stream.cu, then compute.cu).
void localThroughTwoFiles(const float *x, float *y, int n) {
  cublasHandle_t h;
  cublasCreate(&h);                                  // CHECK: library-default-stream {{cuBLAS handle 'h' does work before}} [[cublasSaxpy runs here without a stream]]
  forwardTo(h, x, y, n);
}

// Handed to a function no file of the project defines: it may bind it. Quiet.
void localToUnknown(const float *x, float *y, int n) {
  cublasHandle_t h;
  cublasCreate(&h);
  configureElsewhere(h);
  saxpyWith(h, x, y, n);
}

Engine::Engine() { cublasCreate(&handle_); }        // CHECK: library-default-stream {{cuBLAS handle 'handle_' does work before}} [[cublasSaxpy runs on the default stream here]]

BoundEngine::BoundEngine() { cublasCreate(&handle_); }  // bound in stream.cu: quiet
