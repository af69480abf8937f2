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
  site.add(Counter::StreamCalls, 1);
  if (call.stream == ObservedStream::Legacy)
    site.add(Counter::LegacyStream, 1);
}

void handleAsyncCopy(SiteRecord &site, const ApiCall &call) {
  site.add(Counter::Bytes, call.bytes);
  if (call.hostMemory == HostMemory::Pageable)
    site.add(Counter::Pageable, 1);
  else if (call.hostMemory == HostMemory::Pinned)
    site.add(Counter::Pinned, 1);
}

void handleCallbackThread(SiteRecord &site, const ApiCall &call) {
  if (!call.onCallbackThread)
    return;
  site.add(Counter::CallbackThreadCalls, 1);
  if (call.result != 0) {
    site.add(Counter::CallbackThreadErrors, 1);
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
  site.add(Counter::Calls, 1);
  if (call.hostNs) // untimed calls (launches) skip the atomic
    site.add(Counter::HostNs, call.hostNs);
  // Synchronizations count their stream too: cudaStreamSynchronize is
  // device-wide only on the legacy default stream.
  if (call.traits & (TraitStreamOrdered | TraitSynchronization))
    handleStreamUse(site, call);
  if (call.traits & TraitMemcpyAsync)
    handleAsyncCopy(site, call);
  handleCallbackThread(site, call);
}

} // namespace streamlint::probe
