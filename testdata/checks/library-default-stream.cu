// library-default-stream: library handles used for work before a stream is
// bound to them (cuBLAS, cuSPARSE, cuSOLVER, cuFFT, cuRAND, cuDNN).
#include <cublas_v2.h>
#include <cudnn.h>
#include <cufft.h>
#include <curand.h>
#include <cusolverDn.h>
#include <cusparse.h>
#include <stdlib.h>

#define CUBLAS_CHECK(call) do { if ((call) != CUBLAS_STATUS_SUCCESS) abort(); } while (0)

void neverBound(const float *x, float *y, int n) {
  cublasHandle_t handle;
  cublasCreate(&handle);                             // CHECK: library-default-stream {{cuBLAS handle 'handle' does work before any stream is bound}}
  cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);    // set-up, not work
  const float one = 1.0f;
  cublasSaxpy(handle, n, &one, x, 1, y, 1);
  cublasSaxpy(handle, n, &one, x, 1, y, 1);
  cublasDestroy(handle);
}

void boundRightAway(const float *x, float *y, int n, cudaStream_t stream) {
  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));
  CUBLAS_CHECK(cublasSetStream(handle, stream));
  const float one = 1.0f;
  cublasSaxpy(handle, n, &one, x, 1, y, 1);
  cublasDestroy(handle);
}

void boundTooLate(const float *x, float *y, int n, cudaStream_t stream) {
  cublasHandle_t handle;
  CUBLAS_CHECK(cublasCreate(&handle));               // CHECK: library-default-stream {{does work before}} [[cublasSaxpy runs on the default stream]]
  const float one = 1.0f;
  cublasSaxpy(handle, n, &one, x, 1, y, 1);
  cublasSetStream(handle, stream);
  cublasSaxpy(handle, n, &one, x, 1, y, 1);
}

void boundToZero(const float *x, float *y, int n) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  cublasSetStream(handle, 0);                        // CHECK: library-default-stream {{cublasSetStream runs on the legacy default stream (stream is 0) (cuBLAS is built without per-thread}}
  const float one = 1.0f;
  cublasSaxpy(handle, n, &one, x, 1, y, 1);
}

// Work through the TU's own functions is followed.
void axpy(cublasHandle_t h, const float *x, float *y, int n) {
  const float one = 1.0f;
  cublasSaxpy(h, n, &one, x, 1, y, 1);
}
void bindTo(cublasHandle_t h, cudaStream_t s) { cublasSetStream(h, s); }

void throughHelper(const float *x, float *y, int n) {
  cublasHandle_t handle;
  cublasCreate(&handle);                             // CHECK: library-default-stream {{does work before}} [['axpy' does work with 'handle']]
  axpy(handle, x, y, n);
}

void boundThroughHelper(const float *x, float *y, int n, cudaStream_t s) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  bindTo(handle, s);
  axpy(handle, x, y, n);
}

// Passed to a function we cannot see: it may bind the handle. Quiet.
void configure(cublasHandle_t h);
void escapes(const float *x, float *y, int n) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  configure(handle);
  axpy(handle, x, y, n);
}

// Copied into another variable: not tracked. Quiet.
cublasHandle_t g_copy;
void copied(const float *x, float *y, int n) {
  cublasHandle_t handle;
  cublasCreate(&handle);
  g_copy = handle;
  axpy(handle, x, y, n);
}

// A global created in one function and used in another.
cublasHandle_t g_handle;
void initGlobal() {
  cublasCreate(&g_handle);                           // CHECK: library-default-stream {{cuBLAS handle 'g_handle'}}
}
void useGlobal(const float *x, float *y, int n) { axpy(g_handle, x, y, n); }

// A global bound in another function: quiet.
cublasHandle_t g_bound;
void initBound() { cublasCreate(&g_bound); }
void setBoundStream(cudaStream_t s) { cublasSetStream(g_bound, s); }
void useBound(const float *x, float *y, int n) { axpy(g_bound, x, y, n); }

// Members: created in the constructor, used in a method.
class Solver {
public:
  Solver() { cusolverDnCreate(&handle_); }           // CHECK: library-default-stream {{cuSOLVER handle 'handle_' does work before any stream}}
  void factor(float *A, int n, float *work, int *ipiv, int *info) {
    int lwork = 0;
    cusolverDnSgetrf_bufferSize(handle_, n, n, A, n, &lwork);  // a size query: not work
    cusolverDnSgetrf(handle_, n, n, A, n, work, ipiv, info);
  }
private:
  cusolverDnHandle_t handle_;
};

class BoundSolver {
public:
  explicit BoundSolver(cudaStream_t s) {
    cusolverDnCreate(&handle_);
    cusolverDnSetStream(handle_, s);
  }
  void factor(float *A, int n, float *work, int *ipiv, int *info) {
    cusolverDnSgetrf(handle_, n, n, A, n, work, ipiv, info);
  }
private:
  cusolverDnHandle_t handle_;
};

void fft(cufftReal *in, cufftComplex *out, cudaStream_t s) {
  cufftHandle plan;
  cufftPlan1d(&plan, 1024, CUFFT_R2C, 1);            // CHECK: library-default-stream {{cuFFT handle 'plan' does work before any stream}}
  cufftExecR2C(plan, in, out);
  cufftHandle bound;
  cufftPlan1d(&bound, 1024, CUFFT_R2C, 1);
  cufftSetStream(bound, s);
  cufftExecR2C(bound, in, out);
}

void randomNumbers(float *out, size_t n) {
  curandGenerator_t generator;
  curandCreateGenerator(&generator, CURAND_RNG_PSEUDO_DEFAULT);  // CHECK: library-default-stream {{cuRAND handle 'generator' does work before any stream}}
  curandSetPseudoRandomGeneratorSeed(generator, 1234ULL);
  curandGenerateUniform(generator, out, n);
  curandDestroyGenerator(generator);
}

void sparse(cusparseSpMatDescr_t A, cusparseDnVecDescr_t x, cusparseDnVecDescr_t y,
            void *buffer) {
  cusparseHandle_t handle;
  cusparseCreate(&handle);                           // CHECK: library-default-stream {{cuSPARSE handle 'handle' does work before any stream}}
  float alpha = 1, beta = 0;
  size_t size = 0;
  cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, &beta,
                          y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &size);
  cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, &beta, y,
               CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buffer);
}

void onlyQueries(cusparseSpMatDescr_t A, cusparseDnVecDescr_t x, cusparseDnVecDescr_t y) {
  cusparseHandle_t handle;
  cusparseCreate(&handle);
  float alpha = 1, beta = 0;
  size_t size = 0;
  cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, x, &beta,
                          y, CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &size);
  cusparseDestroy(handle);
}

void dnn(cudnnTensorDescriptor_t desc, const float *a, float *c) {
  cudnnHandle_t handle;
  cudnnCreate(&handle);                              // CHECK: library-default-stream {{cuDNN handle 'handle' does work before any stream}}
  float one = 1;
  cudnnAddTensor(handle, &one, desc, a, &one, desc, c);
  cudnnDestroy(handle);
}

// A function template: followed in its instantiations (the pattern's
// dependent calls resolve to nothing and must not hide the handle).
template <typename T>
void templated(const T *x, T *y, int n) {
  cublasHandle_t handle;
  cublasCreate(&handle);                             // CHECK: library-default-stream {{cuBLAS handle 'handle' does work before}} [[cublasSaxpy runs on the default stream here]]
  const float one = 1.0f;
  cublasSaxpy(handle, n, &one, x, 1, y, 1);         // dependent in the pattern
  cublasDestroy(handle);
}
template void templated<float>(const float *, float *, int);
