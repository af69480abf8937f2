// Stand-in for cudnn.h (cuDNN 9): the handle and one operation.
#pragma once
#pragma clang system_header
#include <cuda_runtime.h>

typedef struct cudnnContext *cudnnHandle_t;
typedef struct cudnnTensorStruct *cudnnTensorDescriptor_t;
typedef enum { CUDNN_STATUS_SUCCESS = 0 } cudnnStatus_t;

cudnnStatus_t cudnnCreate(cudnnHandle_t *handle);
cudnnStatus_t cudnnDestroy(cudnnHandle_t handle);
cudnnStatus_t cudnnSetStream(cudnnHandle_t handle, cudaStream_t streamId);
cudnnStatus_t cudnnAddTensor(cudnnHandle_t handle, const void *alpha,
                             const cudnnTensorDescriptor_t aDesc, const void *A,
                             const void *beta, const cudnnTensorDescriptor_t cDesc,
                             void *C);
