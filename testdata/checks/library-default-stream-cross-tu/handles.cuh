// Library handles shared across translation units: created in init.cu,
// bound in stream.cu, used in compute.cu.
#pragma once
#include <cublas_v2.h>
#include <cufft.h>

extern cublasHandle_t g_blas;        // created in init.cu, never bound
extern cublasHandle_t g_boundLater;  // created in init.cu, bound in stream.cu
extern cufftHandle g_plan;           // created in init.cu, used in compute.cu, bound in compute.cu

void initHandles();
void useBlas(const float *x, float *y, int n);
void setStreams(cudaStream_t s);
void useBound(const float *x, float *y, int n);
void runPlan(cufftReal *in, cufftComplex *out, cudaStream_t s);

// Defined in compute.cu: work with the handle it is given.
void saxpyWith(cublasHandle_t h, const float *x, float *y, int n);
// Defined in stream.cu: binds the handle it is given.
void bindWith(cublasHandle_t h, cudaStream_t s);
// Defined in stream.cu: passes the handle on to saxpyWith.
void forwardTo(cublasHandle_t h, const float *x, float *y, int n);
// Defined nowhere in this project: it may bind the handle.
void configureElsewhere(cublasHandle_t h);

// Members: created in the constructor (init.cu), used by a method (compute.cu).
class Engine {
public:
  Engine();
  void run(const float *x, float *y, int n);
private:
  cublasHandle_t handle_;
};

class BoundEngine {
public:
  BoundEngine();
  void bind(cudaStream_t s); // defined in stream.cu
  void run(const float *x, float *y, int n);
private:
  cublasHandle_t handle_;
};
