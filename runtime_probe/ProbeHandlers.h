#pragma once
// The per-misuse handlers. They take one completed API call as plain data,
// so unit tests drive them with made-up records and no CUPTI.

#include "CallSiteTable.h"

#include <cstdint>

namespace streamlint::probe {

/// What the stream argument of a call was at run time (the analyzer's
/// StreamKind is what source code says it is).
enum class ObservedStream : std::uint8_t { Unknown, Legacy, Other };
/// What the host side of an async copy was at the time of the call.
enum class HostMemory : std::uint8_t { Unknown, Pageable, Pinned };

/// One finished runtime API call, as the CUPTI callback saw it.
struct ApiCall {
  std::uint16_t traits = 0; // ApiTrait bits
  std::uint64_t hostNs = 0; // enter to exit on the calling thread (the probe
                            // counts TSC ticks; the flush converts the sums)
  ObservedStream stream = ObservedStream::Unknown;
  HostMemory hostMemory = HostMemory::Unknown;
  std::uint64_t bytes = 0;
  bool onCallbackThread = false; // made on the driver's host-callback thread
  std::int32_t result = 0;       // cudaError_t returned
  // Allocations, registrations and frees: the memory freed or registered
  // (from the arguments), or allocated (read from `addressOut` after a
  // successful call); `bytes` is its size.
  std::uintptr_t address = 0;
  const void *addressOut = nullptr;
  std::uint32_t thread = 0; // the probe's id of the calling thread
};

class AllocationChurn;
class PinnedMemoryTracker;

// default-stream: counts stream-ordered calls and those on the legacy stream.
void handleStreamUse(SiteRecord &site, const ApiCall &call);
// pageable-memcpy-async: pageable vs pinned host side, bytes.
void handleAsyncCopy(SiteRecord &site, const ApiCall &call);
// api-in-host-callback: calls on the driver's thread and their errors.
void handleCallbackThread(SiteRecord &site, const ApiCall &call);

/// alloc-in-loop's churn and the pinned-range cache: what a successful
/// allocation, registration or free (call.address set) did to memory.
void handleMemoryEvent(SiteRecord &site, const ApiCall &call,
                       AllocationChurn &churn, PinnedMemoryTracker &pinned);

/// The switchboard's common path: counts the call and host time (which is
/// all alloc-in-loop and device-sync need) and runs the handlers that apply.
void recordCall(SiteRecord &site, const ApiCall &call);

} // namespace streamlint::probe
