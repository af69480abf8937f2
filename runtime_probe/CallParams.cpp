// Decoding CUPTI's runtime-API params structs into ApiCall fields.

#include "CallParams.h"

#include "ApiCatalog.h"

#include <cstddef>

namespace streamlint::probe {
namespace {

ObservedStream streamKind(const void *stream, std::uint16_t traits) {
  return api::isLegacyStreamHandle(reinterpret_cast<std::uintptr_t>(stream),
                                   traits & TraitPerThread)
             ? ObservedStream::Legacy
             : ObservedStream::Other;
}

// Pageable host memory is unknown to the driver: the query fails for it.
// Only asked for addresses in no range the program's own calls pinned, once
// per address (PinnedMemoryTracker::classify caches the answer per thread).
HostMemory askDriver(std::uintptr_t address, void *inProbeFlag) {
  bool &inProbe = *static_cast<bool *>(inProbeFlag);
  CUmemorytype type{};
  inProbe = true; // the query must not re-enter the probe's callbacks
  CUresult r = cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                     static_cast<CUdeviceptr>(address));
  inProbe = false;
  if (r != CUDA_SUCCESS)
    return HostMemory::Pageable;
  return type == CU_MEMORYTYPE_HOST ? HostMemory::Pinned : HostMemory::Unknown;
}

HostMemory hostMemoryOf(const void *ptr, ParamsContext &context) {
  return context.pinned.classify(reinterpret_cast<std::uintptr_t>(ptr),
                                 context.cache, askDriver, &context.inProbe);
}

void noteCopy(ApiCall &call, const void *dst, const void *src,
              cudaMemcpyKind kind, std::size_t bytes, const void *stream,
              ParamsContext &context) {
  call.stream = streamKind(stream, call.traits);
  call.bytes = bytes;
  HostMemory d = HostMemory::Unknown, s = HostMemory::Unknown;
  if (dst && (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDefault ||
              kind == cudaMemcpyHostToHost))
    d = hostMemoryOf(dst, context);
  if (src && (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDefault ||
              kind == cudaMemcpyHostToHost))
    s = hostMemoryOf(src, context);
  if (d == HostMemory::Pageable || s == HostMemory::Pageable)
    call.hostMemory = HostMemory::Pageable;
  else if (d == HostMemory::Pinned || s == HostMemory::Pinned)
    call.hostMemory = HostMemory::Pinned;
}

void note3DCopy(ApiCall &call, const cudaMemcpy3DParms *p, const void *stream,
                ParamsContext &context) {
  if (!p) {
    call.stream = streamKind(stream, call.traits);
    return;
  }
  std::size_t bytes = p->extent.width * p->extent.height * p->extent.depth;
  noteCopy(call, p->dstArray ? nullptr : p->dstPtr.ptr,
           p->srcArray ? nullptr : p->srcPtr.ptr, p->kind, bytes, stream, context);
}

} // namespace

void readParams(CUpti_CallbackId cbid, const void *p, ApiCall &call,
                ParamsContext &context) {
  // cudaMemcpy, cudaMemset, ...: no stream argument, the default stream.
  if (call.traits & TraitImplicitStream) {
    call.stream = streamKind(nullptr, call.traits);
    return;
  }
#define STREAM_OF(ID, TYPE, EXPR)                                              \
  case CUPTI_RUNTIME_TRACE_CBID_##ID: {                                        \
    auto *a = static_cast<const TYPE *>(p);                                    \
    call.stream = streamKind(EXPR, call.traits);                               \
    return;                                                                    \
  }
#define COPY_OF(ID, TYPE, DST, SRC, BYTES)                                     \
  case CUPTI_RUNTIME_TRACE_CBID_##ID: {                                        \
    auto *a = static_cast<const TYPE *>(p);                                    \
    noteCopy(call, DST, SRC, a->kind, BYTES, a->stream, context);      \
    return;                                                                    \
  }
#define ALLOCATES(ID, TYPE, OUT, BYTES)                                         \
  case CUPTI_RUNTIME_TRACE_CBID_##ID: {                                        \
    auto *a = static_cast<const TYPE *>(p);                                    \
    call.addressOut = OUT;                                                     \
    call.bytes = BYTES;                                                        \
    return;                                                                    \
  }
#define ADDRESS_GIVEN(ID, TYPE, ADDRESS, BYTES)                                   \
  case CUPTI_RUNTIME_TRACE_CBID_##ID: {                                        \
    auto *a = static_cast<const TYPE *>(p);                                    \
    call.address = reinterpret_cast<std::uintptr_t>(ADDRESS);                  \
    call.bytes = BYTES;                                                        \
    return;                                                                    \
  }
  switch (cbid) {
    STREAM_OF(cudaLaunchKernel_v7000, cudaLaunchKernel_v7000_params, a->stream)
    STREAM_OF(cudaLaunchKernel_ptsz_v7000, cudaLaunchKernel_ptsz_v7000_params, a->stream)
    STREAM_OF(cudaLaunchKernelExC_v11060, cudaLaunchKernelExC_v11060_params, a->config ? a->config->stream : nullptr)
    STREAM_OF(cudaLaunchKernelExC_ptsz_v11060, cudaLaunchKernelExC_ptsz_v11060_params, a->config ? a->config->stream : nullptr)
    STREAM_OF(cudaMemsetAsync_v3020, cudaMemsetAsync_v3020_params, a->stream)
    STREAM_OF(cudaMemsetAsync_ptsz_v7000, cudaMemsetAsync_ptsz_v7000_params, a->stream)
    STREAM_OF(cudaEventRecord_v3020, cudaEventRecord_v3020_params, a->stream)
    STREAM_OF(cudaEventRecord_ptsz_v7000, cudaEventRecord_ptsz_v7000_params, a->stream)
    STREAM_OF(cudaStreamWaitEvent_v3020, cudaStreamWaitEvent_v3020_params, a->stream)
    STREAM_OF(cudaLaunchHostFunc_v10000, cudaLaunchHostFunc_v10000_params, a->stream)
    STREAM_OF(cudaStreamAddCallback_v5000, cudaStreamAddCallback_v5000_params, a->stream)
    STREAM_OF(cudaStreamSynchronize_v3020, cudaStreamSynchronize_v3020_params, a->stream)
    STREAM_OF(cudaStreamSynchronize_ptsz_v7000, cudaStreamSynchronize_ptsz_v7000_params, a->stream)
    STREAM_OF(cudaGraphLaunch_v10000, cudaGraphLaunch_v10000_params, a->stream)
    COPY_OF(cudaMemcpyAsync_v3020, cudaMemcpyAsync_v3020_params, a->dst, a->src, a->count)
    COPY_OF(cudaMemcpyAsync_ptsz_v7000, cudaMemcpyAsync_ptsz_v7000_params, a->dst, a->src, a->count)
    COPY_OF(cudaMemcpy2DAsync_v3020, cudaMemcpy2DAsync_v3020_params, a->dst, a->src, a->width * a->height)
    COPY_OF(cudaMemcpy2DAsync_ptsz_v7000, cudaMemcpy2DAsync_ptsz_v7000_params, a->dst, a->src, a->width * a->height)
    COPY_OF(cudaMemcpyToSymbolAsync_v3020, cudaMemcpyToSymbolAsync_v3020_params, nullptr, a->src, a->count)
    COPY_OF(cudaMemcpyFromSymbolAsync_v3020, cudaMemcpyFromSymbolAsync_v3020_params, a->dst, nullptr, a->count)
    // Stream-ordered calls the checks flag whose stream must be read (else
    // default-stream could only call them "not reached").
    STREAM_OF(cudaLaunchCooperativeKernel_v9000, cudaLaunchCooperativeKernel_v9000_params, a->stream)
    STREAM_OF(cudaLaunchCooperativeKernel_ptsz_v9000, cudaLaunchCooperativeKernel_ptsz_v9000_params, a->stream)
    STREAM_OF(cudaEventRecordWithFlags_v11010, cudaEventRecordWithFlags_v11010_params, a->stream)
    STREAM_OF(cudaEventRecordWithFlags_ptsz_v11010, cudaEventRecordWithFlags_ptsz_v11010_params, a->stream)
    STREAM_OF(cudaStreamWaitEvent_ptsz_v7000, cudaStreamWaitEvent_ptsz_v7000_params, a->stream)
    STREAM_OF(cudaLaunchHostFunc_ptsz_v10000, cudaLaunchHostFunc_ptsz_v10000_params, a->stream)
    STREAM_OF(cudaStreamAddCallback_ptsz_v7000, cudaStreamAddCallback_ptsz_v7000_params, a->stream)
    STREAM_OF(cudaGraphLaunch_ptsz_v10000, cudaGraphLaunch_ptsz_v10000_params, a->stream)
    STREAM_OF(cudaMallocAsync_v11020, cudaMallocAsync_v11020_params, a->hStream)
    STREAM_OF(cudaMallocAsync_ptsz_v11020, cudaMallocAsync_ptsz_v11020_params, a->hStream)
    STREAM_OF(cudaMallocFromPoolAsync_v11020, cudaMallocFromPoolAsync_v11020_params, a->stream)
    STREAM_OF(cudaMallocFromPoolAsync_ptsz_v11020, cudaMallocFromPoolAsync_ptsz_v11020_params, a->stream)
    STREAM_OF(cudaFreeAsync_v11020, cudaFreeAsync_v11020_params, a->hStream)
    STREAM_OF(cudaFreeAsync_ptsz_v11020, cudaFreeAsync_ptsz_v11020_params, a->hStream)
    STREAM_OF(cudaMemPrefetchAsync_v12020, cudaMemPrefetchAsync_v12020_params, a->stream)
    STREAM_OF(cudaMemPrefetchAsync_ptsz_v12020, cudaMemPrefetchAsync_ptsz_v12020_params, a->stream)
    STREAM_OF(cudaMemcpyPeerAsync_v4000, cudaMemcpyPeerAsync_v4000_params, a->stream)
    STREAM_OF(cudaMemcpy3DPeerAsync_v4000, cudaMemcpy3DPeerAsync_v4000_params, a->stream)
    STREAM_OF(cudaMemcpy3DPeerAsync_ptsz_v7000, cudaMemcpy3DPeerAsync_ptsz_v7000_params, a->stream)
    STREAM_OF(cudaMemset2DAsync_v3020, cudaMemset2DAsync_v3020_params, a->stream)
    STREAM_OF(cudaMemset2DAsync_ptsz_v7000, cudaMemset2DAsync_ptsz_v7000_params, a->stream)
    STREAM_OF(cudaMemset3DAsync_v3020, cudaMemset3DAsync_v3020_params, a->stream)
    STREAM_OF(cudaMemset3DAsync_ptsz_v7000, cudaMemset3DAsync_ptsz_v7000_params, a->stream)
    COPY_OF(cudaMemcpyToSymbolAsync_ptsz_v7000, cudaMemcpyToSymbolAsync_ptsz_v7000_params, nullptr, a->src, a->count)
    COPY_OF(cudaMemcpyFromSymbolAsync_ptsz_v7000, cudaMemcpyFromSymbolAsync_ptsz_v7000_params, a->dst, nullptr, a->count)
    COPY_OF(cudaMemcpy2DToArrayAsync_v3020, cudaMemcpy2DToArrayAsync_v3020_params, nullptr, a->src, a->width * a->height)
    COPY_OF(cudaMemcpy2DToArrayAsync_ptsz_v7000, cudaMemcpy2DToArrayAsync_ptsz_v7000_params, nullptr, a->src, a->width * a->height)
    COPY_OF(cudaMemcpy2DFromArrayAsync_v3020, cudaMemcpy2DFromArrayAsync_v3020_params, a->dst, nullptr, a->width * a->height)
    COPY_OF(cudaMemcpy2DFromArrayAsync_ptsz_v7000, cudaMemcpy2DFromArrayAsync_ptsz_v7000_params, a->dst, nullptr, a->width * a->height)
    COPY_OF(cudaMemcpyToArrayAsync_v3020, cudaMemcpyToArrayAsync_v3020_params, nullptr, a->src, a->count)
    COPY_OF(cudaMemcpyToArrayAsync_ptsz_v7000, cudaMemcpyToArrayAsync_ptsz_v7000_params, nullptr, a->src, a->count)
    COPY_OF(cudaMemcpyFromArrayAsync_v3020, cudaMemcpyFromArrayAsync_v3020_params, a->dst, nullptr, a->count)
    COPY_OF(cudaMemcpyFromArrayAsync_ptsz_v7000, cudaMemcpyFromArrayAsync_ptsz_v7000_params, a->dst, nullptr, a->count)
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_v3020:
  case CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy3DAsync_ptsz_v7000: {
    // Both params structs are {const cudaMemcpy3DParms *p; cudaStream_t stream}.
    auto *a = static_cast<const cudaMemcpy3DAsync_v3020_params *>(p);
    note3DCopy(call, a->p, a->stream, context);
    return;
  }
    // Allocations, registrations and frees: alloc-in-loop's churn and the
    // pinned ranges that spare the async copies a driver query.
    ALLOCATES(cudaMalloc_v3020, cudaMalloc_v3020_params, a->devPtr, a->size)
    ALLOCATES(cudaMallocHost_v3020, cudaMallocHost_v3020_params, a->ptr, a->size)
    ALLOCATES(cudaHostAlloc_v3020, cudaHostAlloc_v3020_params, a->pHost, a->size)
    ALLOCATES(cudaMallocManaged_v6000, cudaMallocManaged_v6000_params, a->devPtr, a->size)
    ALLOCATES(cudaMallocPitch_v3020, cudaMallocPitch_v3020_params, a->devPtr, 0)
    ALLOCATES(cudaMalloc3D_v3020, cudaMalloc3D_v3020_params, a->pitchedDevPtr, 0) // .ptr is first
    ALLOCATES(cudaMallocArray_v3020, cudaMallocArray_v3020_params, a->array, 0)
    ALLOCATES(cudaMalloc3DArray_v3020, cudaMalloc3DArray_v3020_params, a->array, 0)
    ALLOCATES(cudaMallocMipmappedArray_v5000, cudaMallocMipmappedArray_v5000_params, a->mipmappedArray, 0)
    ADDRESS_GIVEN(cudaHostRegister_v4000, cudaHostRegister_v4000_params, a->ptr, a->size)
    ADDRESS_GIVEN(cudaFree_v3020, cudaFree_v3020_params, a->devPtr, 0)
    ADDRESS_GIVEN(cudaFreeHost_v3020, cudaFreeHost_v3020_params, a->ptr, 0)
    ADDRESS_GIVEN(cudaHostUnregister_v4000, cudaHostUnregister_v4000_params, a->ptr, 0)
    ADDRESS_GIVEN(cudaFreeArray_v3020, cudaFreeArray_v3020_params, a->array, 0)
    ADDRESS_GIVEN(cudaFreeMipmappedArray_v5000, cudaFreeMipmappedArray_v5000_params, a->mipmappedArray, 0)
  default:
    return;
  }
#undef STREAM_OF
#undef COPY_OF
#undef ALLOCATES
#undef ADDRESS_GIVEN
}

void readDriverParams(CUpti_CallbackId cbid, const void *p, ApiCall &call,
                      ParamsContext &context) {
  // cuMemcpy, cuMemsetD8, ...: no stream argument, the default stream.
  if (call.traits & TraitImplicitStream) {
    call.stream = streamKind(nullptr, call.traits);
    return;
  }
  if (!p)
    return;
#define DRIVER(ID, TYPE, WHAT)                                                 \
  case CUPTI_DRIVER_TRACE_CBID_##ID: {                                         \
    auto *a = static_cast<const TYPE *>(p);                                    \
    WHAT;                                                                      \
    return;                                                                    \
  }
  switch (cbid) {
    DRIVER(cuMemAlloc_v2, cuMemAlloc_v2_params, call.addressOut = a->dptr; call.bytes = a->bytesize)
    DRIVER(cuMemAllocPitch_v2, cuMemAllocPitch_v2_params, call.addressOut = a->dptr)
    DRIVER(cuMemAllocManaged, cuMemAllocManaged_params, call.addressOut = a->dptr; call.bytes = a->bytesize)
    DRIVER(cuMemAllocHost_v2, cuMemAllocHost_v2_params, call.addressOut = a->pp; call.bytes = a->bytesize)
    DRIVER(cuMemHostAlloc, cuMemHostAlloc_params, call.addressOut = a->pp; call.bytes = a->bytesize)
    DRIVER(cuMemHostRegister_v2, cuMemHostRegister_v2_params, call.address = reinterpret_cast<std::uintptr_t>(a->p); call.bytes = a->bytesize)
    DRIVER(cuMemFree_v2, cuMemFree_v2_params, call.address = a->dptr)
    DRIVER(cuMemFreeHost, cuMemFreeHost_params, call.address = reinterpret_cast<std::uintptr_t>(a->p))
    DRIVER(cuMemHostUnregister, cuMemHostUnregister_params, call.address = reinterpret_cast<std::uintptr_t>(a->p))
    DRIVER(cuStreamSynchronize, cuStreamSynchronize_params, call.stream = streamKind(a->hStream, call.traits))
    DRIVER(cuStreamSynchronize_ptsz, cuStreamSynchronize_ptsz_params, call.stream = streamKind(a->hStream, call.traits))
    DRIVER(cuMemcpyHtoDAsync_v2, cuMemcpyHtoDAsync_v2_params, noteCopy(call, nullptr, a->srcHost, cudaMemcpyHostToDevice, a->ByteCount, a->hStream, context))
    DRIVER(cuMemcpyHtoDAsync_v2_ptsz, cuMemcpyHtoDAsync_v2_ptsz_params, noteCopy(call, nullptr, a->srcHost, cudaMemcpyHostToDevice, a->ByteCount, a->hStream, context))
    DRIVER(cuMemcpyDtoHAsync_v2, cuMemcpyDtoHAsync_v2_params, noteCopy(call, a->dstHost, nullptr, cudaMemcpyDeviceToHost, a->ByteCount, a->hStream, context))
    DRIVER(cuMemcpyDtoHAsync_v2_ptsz, cuMemcpyDtoHAsync_v2_ptsz_params, noteCopy(call, a->dstHost, nullptr, cudaMemcpyDeviceToHost, a->ByteCount, a->hStream, context))
  default:
    return;
  }
#undef DRIVER
}

// Every cudaGetDriverEntryPoint* params struct starts with the symbol's name.
static_assert(offsetof(cudaGetDriverEntryPoint_v11030_params, symbol) == 0 &&
              offsetof(cudaGetDriverEntryPoint_ptsz_v11030_params, symbol) == 0 &&
              offsetof(cudaGetDriverEntryPointByVersion_v12050_params, symbol) == 0 &&
              offsetof(cudaGetDriverEntryPointByVersion_ptsz_v12050_params, symbol) == 0);

const char *fetchedEntryPointSymbol(const void *p) {
  const char *symbol = static_cast<const cudaGetDriverEntryPoint_v11030_params *>(p)->symbol;
  return symbol ? symbol : "";
}

} // namespace streamlint::probe
