// Stand-in for cublasLt.h (CUDA 13): cublasLtMatmul and its stream argument.
#pragma once
#pragma clang system_header
#include <cublas_v2.h>
#include <stdint.h>

typedef struct cublasLtContext *cublasLtHandle_t;
typedef struct { uint64_t data[32]; } cublasLtMatmulDescOpaque_t;
typedef cublasLtMatmulDescOpaque_t *cublasLtMatmulDesc_t;
typedef struct { uint64_t data[8]; } cublasLtMatrixLayoutOpaque_t;
typedef cublasLtMatrixLayoutOpaque_t *cublasLtMatrixLayout_t;
typedef struct { uint64_t data[8]; } cublasLtMatmulAlgo_t;

cublasStatus_t cublasLtCreate(cublasLtHandle_t *lightHandle);
cublasStatus_t cublasLtMatmul(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc,
                              const void *alpha, const void *A, cublasLtMatrixLayout_t Adesc,
                              const void *B, cublasLtMatrixLayout_t Bdesc, const void *beta,
                              const void *C, cublasLtMatrixLayout_t Cdesc, void *D,
                              cublasLtMatrixLayout_t Ddesc, const cublasLtMatmulAlgo_t *algo,
                              void *workspace, size_t workspaceSizeInBytes,
                              cudaStream_t stream);
