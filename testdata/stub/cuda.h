// A small stand-in for the CUDA 13 driver API header (see cuda_runtime.h).
#pragma once
#pragma clang system_header

#include <stddef.h>

#define CUDA_VERSION 13000
#define CUDA_CB

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUstream_st *CUstream;
typedef void(CUDA_CB *CUhostFn)(void *userData);
typedef void(CUDA_CB *CUstreamCallback)(CUstream hStream, CUresult status,
                                        void *userData);
#define CUDA_SUCCESS 0

extern "C" {
CUresult cuCtxSynchronize(void);
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuInit(unsigned int flags);
CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);
CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize);
CUresult cuMemAllocHost(void **pp, size_t bytesize);
CUresult cuMemFree(CUdeviceptr dptr);
CUresult cuMemFreeHost(void *p);
CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost,
                      size_t ByteCount);
CUresult cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost,
                           size_t ByteCount, CUstream hStream);
CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback,
                             void *userData, unsigned int flags);
CUresult cuStreamSynchronize(CUstream hStream);
} // extern "C"
