#pragma once
// Reading a call's stream, bytes, host-memory kind and the memory it
// allocates or frees from the params struct CUPTI passes to the API-enter
// callback.

#include "PinnedMemoryTracker.h"
#include "ProbeHandlers.h"

#include <cupti.h> // also brings the runtime and driver *_params structs

namespace streamlint::probe {

/// What reading params may consult: the program's pinned ranges, this
/// thread's cache of them, and the thread's re-entrancy flag, set around the
/// driver query for host memory no intercepted call told about.
struct ParamsContext {
  const PinnedMemoryTracker &pinned;
  PinnedMemoryTracker::ThreadCache &cache;
  bool &inProbe;
};

/// Fills `call` from the runtime call `cbid`'s params struct `p`;
/// `call.traits` must be set. Calls without a params struct here
/// (`__cudaLaunchKernel`) keep an unknown stream: it comes from the nested
/// driver launch.
void readParams(CUpti_CallbackId cbid, const void *p, ApiCall &call,
                ParamsContext &context);

/// The same for the driver entry points the checks flag (cuMemAlloc,
/// cuStreamSynchronize, ...) when the application calls them itself.
void readDriverParams(CUpti_CallbackId cbid, const void *p, ApiCall &call,
                      ParamsContext &context);

/// The driver symbol's name a cudaGetDriverEntryPoint[ByVersion] call
/// fetches (`p`: its params struct, any of the four); "" when null.
const char *fetchedEntryPointSymbol(const void *p);

} // namespace streamlint::probe
