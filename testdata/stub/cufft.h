// Stand-in for cufft.h (CUDA 13): plans are ints, bound with cufftSetStream.
#pragma once
#pragma clang system_header
#include <cuda_runtime.h>

typedef int cufftHandle;
typedef enum { CUFFT_SUCCESS = 0 } cufftResult;
typedef enum { CUFFT_R2C = 0x2a, CUFFT_C2R = 0x2c, CUFFT_C2C = 0x29 } cufftType;
typedef float cufftReal;
typedef struct { float x, y; } cufftComplex;
#define CUFFT_FORWARD -1

cufftResult cufftPlan1d(cufftHandle *plan, int nx, cufftType type, int batch);
cufftResult cufftCreate(cufftHandle *handle);
cufftResult cufftSetStream(cufftHandle plan, cudaStream_t stream);
cufftResult cufftDestroy(cufftHandle plan);
cufftResult cufftExecR2C(cufftHandle plan, cufftReal *idata, cufftComplex *odata);
cufftResult cufftExecC2C(cufftHandle plan, cufftComplex *idata, cufftComplex *odata,
                         int direction);
