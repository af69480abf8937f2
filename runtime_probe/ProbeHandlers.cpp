#include "ProbeHandlers.h"

#include "ApiCatalog.h"

namespace streamlint::probe {
namespace {
constexpr auto kRelaxed = std::memory_order_relaxed;
}

void handleStreamUse(SiteRecord &site, const ApiCall &call) {
  if (call.stream == StreamKind::Unknown)
    return;
  site.streamCalls.fetch_add(1, kRelaxed);
  if (call.stream == StreamKind::Legacy)
    site.legacyStream.fetch_add(1, kRelaxed);
}

void handleAsyncCopy(SiteRecord &site, const ApiCall &call) {
  site.bytes.fetch_add(call.bytes, kRelaxed);
  if (call.hostMemory == HostMemory::Pageable)
    site.pageable.fetch_add(1, kRelaxed);
  else if (call.hostMemory == HostMemory::Pinned)
    site.pinned.fetch_add(1, kRelaxed);
}

void handleCallbackThread(SiteRecord &site, const ApiCall &call) {
  if (!call.onCallbackThread)
    return;
  site.callbackThreadCalls.fetch_add(1, kRelaxed);
  if (call.result != 0) {
    site.callbackThreadErrors.fetch_add(1, kRelaxed);
    site.lastCallbackThreadError.store(call.result, kRelaxed);
  }
}

void recordCall(SiteRecord &site, const ApiCall &call) {
  site.calls.fetch_add(1, kRelaxed);
  if (call.hostNs) // untimed calls (launches) skip the atomic
    site.hostNs.fetch_add(call.hostNs, kRelaxed);
  // Synchronizations count their stream too: cudaStreamSynchronize is
  // device-wide only on the legacy default stream.
  if (call.traits & (TraitStreamOrdered | TraitSynchronization))
    handleStreamUse(site, call);
  if (call.traits & TraitMemcpyAsync)
    handleAsyncCopy(site, call);
  handleCallbackThread(site, call);
}

} // namespace streamlint::probe
