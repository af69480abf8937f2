// Decoding CUPTI's runtime-API params structs into ApiCall fields.

#include "CallParams.h"

#include "ApiCatalog.h"

namespace streamlint::probe {
namespace {

StreamKind streamKind(const void *stream, std::uint16_t traits) {
  return isLegacyStream(reinterpret_cast<std::uintptr_t>(stream),
                        traits & TraitPerThread)
             ? StreamKind::Legacy
             : StreamKind::Other;
}

// Pageable host memory is unknown to the driver: the query fails for it.
HostMemory hostMemoryOf(const void *ptr, bool &inProbe) {
  CUmemorytype type{};
  inProbe = true; // the query must not re-enter the probe's callbacks
  CUresult r = cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                     reinterpret_cast<CUdeviceptr>(ptr));
  inProbe = false;
  if (r != CUDA_SUCCESS)
    return HostMemory::Pageable;
  return type == CU_MEMORYTYPE_HOST ? HostMemory::Pinned : HostMemory::Unknown;
}

void noteCopy(ApiCall &call, const void *dst, const void *src,
              cudaMemcpyKind kind, std::size_t bytes, const void *stream,
              bool &inProbe) {
  call.stream = streamKind(stream, call.traits);
  call.bytes = bytes;
  HostMemory d = HostMemory::Unknown, s = HostMemory::Unknown;
  if (dst && (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDefault ||
              kind == cudaMemcpyHostToHost))
    d = hostMemoryOf(dst, inProbe);
  if (src && (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDefault ||
              kind == cudaMemcpyHostToHost))
    s = hostMemoryOf(src, inProbe);
  if (d == HostMemory::Pageable || s == HostMemory::Pageable)
    call.hostMemory = HostMemory::Pageable;
  else if (d == HostMemory::Pinned || s == HostMemory::Pinned)
    call.hostMemory = HostMemory::Pinned;
}

} // namespace

void readParams(CUpti_CallbackId cbid, const void *p, ApiCall &call,
                bool &inProbe) {
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
    noteCopy(call, DST, SRC, a->kind, BYTES, a->stream, inProbe);                       \
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
  default:
    return;
  }
#undef STREAM_OF
#undef COPY_OF
}

} // namespace streamlint::probe
