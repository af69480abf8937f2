#include "ApiCatalog.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace streamlint::probe {
namespace {

struct Entry {
  std::string_view name;
  std::uint16_t traits;
};

constexpr std::uint16_t kAsync = TraitStreamOrdered;
constexpr std::uint16_t kCopy = TraitStreamOrdered | TraitMemcpyAsync;
constexpr std::uint16_t kLaunch = TraitStreamOrdered | TraitLaunch;
// The synchronous copies and memsets device-sync reports: they run on the
// default stream, so on the legacy one they wait for every blocking stream.
constexpr std::uint16_t kSyncOnDefault = TraitSynchronization | TraitImplicitStream;
constexpr std::uint16_t kAlloc = TraitAllocation;
constexpr std::uint16_t kFree = TraitAllocation | TraitFrees;
constexpr std::uint16_t kPinnedAlloc = TraitAllocation | TraitPinsHost;
constexpr std::uint16_t kDriverAlloc = TraitAllocation | TraitDriverApi;
constexpr std::uint16_t kDriverFree = kFree | TraitDriverApi;

// Looked up linearly, once per callback id, so order does not matter.
constexpr std::array<Entry, 68> kCatalog = {{
    {"__cudaLaunchKernel", kLaunch},
    {"cudaDeviceSynchronize", TraitSynchronization | TraitDeviceWide},
    {"cudaEventRecord", kAsync},
    {"cudaEventRecordWithFlags", kAsync},
    {"cudaEventSynchronize", TraitSynchronization},
    {"cudaFree", kFree},
    {"cudaFreeArray", kFree},
    {"cudaFreeHost", kFree},
    {"cudaFreeMipmappedArray", kFree},
    {"cudaGraphLaunch", kAsync},
    {"cudaHostAlloc", kPinnedAlloc},
    {"cudaHostRegister", kPinnedAlloc},
    {"cudaHostUnregister", kFree},
    {"cudaLaunchCooperativeKernel", kLaunch},
    {"cudaLaunchHostFunc", kAsync},
    {"cudaLaunchKernel", kLaunch},
    {"cudaLaunchKernelExC", kLaunch},
    {"cudaMalloc", TraitAllocation},
    {"cudaMalloc3D", TraitAllocation},
    {"cudaMalloc3DArray", TraitAllocation},
    {"cudaMallocArray", TraitAllocation},
    {"cudaMallocHost", kPinnedAlloc},
    {"cudaMallocManaged", kAlloc | TraitManaged},
    {"cudaMallocMipmappedArray", TraitAllocation},
    {"cudaMallocPitch", TraitAllocation},
    {"cudaMemPrefetchAsync", kAsync},
    {"cudaMemcpy", kSyncOnDefault},
    {"cudaMemcpy2D", kSyncOnDefault},
    {"cudaMemcpy2DAsync", kCopy},
    {"cudaMemcpy3D", kSyncOnDefault},
    {"cudaMemcpy3DAsync", kCopy},
    {"cudaMemcpyAsync", kCopy},
    {"cudaMemcpyFromSymbol", kSyncOnDefault},
    {"cudaMemcpyFromSymbolAsync", kCopy},
    {"cudaMemcpyPeerAsync", kAsync},
    {"cudaMemcpyToSymbol", kSyncOnDefault},
    {"cudaMemcpyToSymbolAsync", kCopy},
    {"cudaMemset", kSyncOnDefault},
    {"cudaMemset2D", kSyncOnDefault},
    {"cudaMemset2DAsync", kAsync},
    {"cudaMemsetAsync", kAsync},
    {"cudaStreamAddCallback", kAsync},
    {"cudaStreamSynchronize", TraitSynchronization},
    {"cudaStreamWaitEvent", kAsync},
    {"cudaThreadSynchronize", TraitSynchronization | TraitDeviceWide},
    {"cudaMemset3D", kSyncOnDefault},
    {"cudaMemset3DAsync", kAsync},
    // Stream-ordered allocation and the array copies (default-stream,
    // pageable-memcpy-async flag them).
    {"cudaMallocAsync", kAsync},
    {"cudaMallocFromPoolAsync", kAsync},
    {"cudaFreeAsync", kAsync},
    {"cudaMemcpy3DPeerAsync", kAsync},
    {"cudaMemcpy2DToArrayAsync", kCopy},
    {"cudaMemcpy2DFromArrayAsync", kCopy},
    {"cudaMemcpyToArrayAsync", kCopy},
    {"cudaMemcpyFromArrayAsync", kCopy},
    // Driver API entry points the checks flag (alloc-in-loop, device-sync).
    // Observed only when the application calls them itself, not nested
    // inside a runtime call.
    {"cuMemAlloc", kDriverAlloc},
    {"cuMemAllocPitch", kDriverAlloc},
    {"cuMemAllocManaged", kDriverAlloc | TraitManaged},
    {"cuMemAllocHost", kDriverAlloc | TraitPinsHost},
    {"cuMemHostAlloc", kDriverAlloc | TraitPinsHost},
    {"cuMemHostRegister", kDriverAlloc | TraitPinsHost},
    {"cuMemFree", kDriverFree},
    {"cuMemFreeHost", kDriverFree},
    {"cuMemHostUnregister", kDriverFree},
    {"cuCtxSynchronize", TraitSynchronization | TraitDeviceWide | TraitDriverApi},
    {"cuStreamSynchronize", TraitSynchronization | TraitDriverApi},
    // pageable-memcpy-async's driver copies (no default-stream check for them).
    {"cuMemcpyHtoDAsync", TraitMemcpyAsync | TraitDriverApi},
    {"cuMemcpyDtoHAsync", TraitMemcpyAsync | TraitDriverApi},
}};

bool endsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.substr(s.size() - suffix.size()) == suffix;
}

// Strips one trailing `_v<digits>`.
std::string_view stripVersion(std::string_view name) {
  std::size_t pos = name.rfind("_v");
  if (pos == std::string_view::npos || pos + 2 == name.size())
    return name;
  for (std::size_t i = pos + 2; i < name.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(name[i])))
      return name;
  return name.substr(0, pos);
}

bool isPerThreadName(std::string_view name) {
  std::string_view v = stripVersion(name);
  return endsWith(v, "_ptsz") || endsWith(v, "_ptds");
}

} // namespace

std::string_view baseApiName(std::string_view name) {
  std::string_view v = stripVersion(name);
  if (endsWith(v, "_ptsz") || endsWith(v, "_ptds"))
    v.remove_suffix(5);
  return stripVersion(v); // the driver's cuMemcpyHtoDAsync_v2_ptsz
}

std::uint16_t classifyApi(std::string_view name) {
  std::string_view base = baseApiName(name);
  std::uint16_t traits = TraitKnown;
  for (const Entry &e : kCatalog) // 68 entries, called once per callback id
    if (e.name == base)
      traits |= e.traits;
  if (isPerThreadName(name))
    traits |= TraitPerThread;
  return traits;
}

bool isLegacyStream(std::uintptr_t stream, bool perThreadVariant) {
  if (stream == kStreamLegacyHandle)
    return true;
  if (stream == 0)
    return !perThreadVariant;
  return false;
}

} // namespace streamlint::probe
