// Stand-in for cusparse.h (CUDA 13): the handle, SpMV and its buffer query.
#pragma once
#pragma clang system_header
#include <cuda_runtime.h>

typedef struct cusparseContext *cusparseHandle_t;
typedef struct cusparseSpMatDescr *cusparseSpMatDescr_t;
typedef struct cusparseDnVecDescr *cusparseDnVecDescr_t;
typedef enum { CUSPARSE_STATUS_SUCCESS = 0 } cusparseStatus_t;
typedef enum { CUSPARSE_OPERATION_NON_TRANSPOSE = 0 } cusparseOperation_t;
typedef enum { CUSPARSE_SPMV_ALG_DEFAULT = 0 } cusparseSpMVAlg_t;
typedef enum { CUDA_R_32F = 0 } cudaDataType;

cusparseStatus_t cusparseCreate(cusparseHandle_t *handle);
cusparseStatus_t cusparseDestroy(cusparseHandle_t handle);
cusparseStatus_t cusparseSetStream(cusparseHandle_t handle, cudaStream_t streamId);
cusparseStatus_t cusparseSpMV_bufferSize(cusparseHandle_t handle, cusparseOperation_t opA,
                                         const void *alpha, cusparseSpMatDescr_t matA,
                                         cusparseDnVecDescr_t vecX, const void *beta,
                                         cusparseDnVecDescr_t vecY, cudaDataType computeType,
                                         cusparseSpMVAlg_t alg, size_t *bufferSize);
cusparseStatus_t cusparseSpMV(cusparseHandle_t handle, cusparseOperation_t opA,
                              const void *alpha, cusparseSpMatDescr_t matA,
                              cusparseDnVecDescr_t vecX, const void *beta,
                              cusparseDnVecDescr_t vecY, cudaDataType computeType,
                              cusparseSpMVAlg_t alg, void *externalBuffer);
