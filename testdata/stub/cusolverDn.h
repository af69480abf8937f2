// Stand-in for cusolverDn.h (CUDA 13): the handle and LU factorization.
#pragma once
#pragma clang system_header
#include <cuda_runtime.h>

typedef struct cusolverDnContext *cusolverDnHandle_t;
typedef enum { CUSOLVER_STATUS_SUCCESS = 0 } cusolverStatus_t;

cusolverStatus_t cusolverDnCreate(cusolverDnHandle_t *handle);
cusolverStatus_t cusolverDnDestroy(cusolverDnHandle_t handle);
cusolverStatus_t cusolverDnSetStream(cusolverDnHandle_t handle, cudaStream_t streamId);
cusolverStatus_t cusolverDnSgetrf_bufferSize(cusolverDnHandle_t handle, int m, int n,
                                             float *A, int lda, int *Lwork);
cusolverStatus_t cusolverDnSgetrf(cusolverDnHandle_t handle, int m, int n, float *A,
                                  int lda, float *Workspace, int *devIpiv, int *devInfo);
