#include "ProbeHandlers.h"

#include "AllocationChurn.h"
#include "ApiCatalog.h"
#include "PinnedMemoryTracker.h"

namespace streamlint::probe {
namespace {
constexpr auto kRelaxed = std::memory_order_relaxed;
}

void handleStreamUse(SiteRecord &site, const ApiCall &call) {
  if (call.stream == ObservedStream::Unknown)
    return;
  site.streamCalls.fetch_add(1, kRelaxed);
  if (call.stream == ObservedStream::Legacy)
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

void handleMemoryEvent(SiteRecord &site, const ApiCall &call,
                       AllocationChurn &churn, PinnedMemoryTracker &pinned) {
  if (call.result != 0 || !call.address || !(call.traits & TraitAllocation))
    return;
  if (call.traits & TraitFrees) {
    churn.freed(site, call.address);
    pinned.remove(call.address); // cudaFreeHost, cudaHostUnregister, managed
    return;
  }
  churn.allocated(site, call.address, call.thread);
  if (call.traits & TraitPinsHost)
    pinned.add(call.address, call.bytes, HostRangeKind::Pinned);
  else if (call.traits & TraitManaged)
    pinned.add(call.address, call.bytes, HostRangeKind::Managed);
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
