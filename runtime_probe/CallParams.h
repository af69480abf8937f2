#pragma once
// Reading a runtime API call's stream, bytes and host-memory kind from the
// params struct CUPTI passes to the API-enter callback.

#include "ProbeHandlers.h"

#include <cupti.h> // also brings the runtime and driver *_params structs

namespace streamlint::probe {

/// The stream kind (and, for async copies, bytes and host-memory kind) of
/// the call `cbid` from its params struct `p`; `call.traits` must be set.
/// Calls without a params struct here (`__cudaLaunchKernel`) keep an unknown
/// stream: it comes from the nested driver launch. The host-memory query is
/// a driver call: `inProbe` (the thread's re-entrancy flag) is set around it.
void readParams(CUpti_CallbackId cbid, const void *p, ApiCall &call,
                bool &inProbe);

} // namespace streamlint::probe
