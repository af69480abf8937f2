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

// Looked up linearly, once per callback id, so order does not matter.
constexpr std::array<Entry, 47> kCatalog = {{
    {"__cudaLaunchKernel", kLaunch},
    {"cudaDeviceSynchronize", TraitSynchronization | TraitDeviceWide},
    {"cudaEventRecord", kAsync},
    {"cudaEventRecordWithFlags", kAsync},
    {"cudaEventSynchronize", TraitSynchronization},
    {"cudaFree", TraitAllocation},
    {"cudaFreeArray", TraitAllocation},
    {"cudaFreeHost", TraitAllocation},
    {"cudaFreeMipmappedArray", TraitAllocation},
    {"cudaGraphLaunch", kAsync},
    {"cudaHostAlloc", TraitAllocation},
    {"cudaHostRegister", TraitAllocation},
    {"cudaHostUnregister", TraitAllocation},
    {"cudaLaunchCooperativeKernel", kLaunch},
    {"cudaLaunchHostFunc", kAsync},
    {"cudaLaunchKernel", kLaunch},
    {"cudaLaunchKernelExC", kLaunch},
    {"cudaMalloc", TraitAllocation},
    {"cudaMalloc3D", TraitAllocation},
    {"cudaMalloc3DArray", TraitAllocation},
    {"cudaMallocArray", TraitAllocation},
    {"cudaMallocHost", TraitAllocation},
    {"cudaMallocManaged", TraitAllocation},
    {"cudaMallocMipmappedArray", TraitAllocation},
    {"cudaMallocPitch", TraitAllocation},
    {"cudaMemPrefetchAsync", kAsync},
    {"cudaMemcpy", kSyncOnDefault},
    {"cudaMemcpy2D", kSyncOnDefault},
    {"cudaMemcpy2DAsync", kCopy},
    {"cudaMemcpy3D", kSyncOnDefault},
    {"cudaMemcpy3DAsync", kAsync},
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
  return v;
}

std::uint16_t classifyApi(std::string_view name) {
  std::string_view base = baseApiName(name);
  std::uint16_t traits = TraitKnown;
  for (const Entry &e : kCatalog) // 47 entries, called once per callback id
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
