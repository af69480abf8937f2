#pragma once
// Turns on the runtime API callbacks CallbackSelection.h chooses. Shared by
// the probe and bench/probe/cupti_floor.cpp, so that the CUPTI floor the
// benches subtract is measured with the very subscription the probe makes.

#include "CallbackSelection.h"

#include <cupti.h>

#include <cstdint>
#include <initializer_list>

namespace streamlint::probe {

/// The whole runtime domain, less __cudaPush/PopCallConfiguration: every
/// <<<>>> launch pushes and pops its configuration, bookkeeping that is never
/// a misuse and would double a launch's callbacks.
inline void enableWholeRuntimeDomain(CUpti_SubscriberHandle subscriber) {
  cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
  for (CUpti_CallbackId id : {CUPTI_RUNTIME_TRACE_CBID___cudaPushCallConfiguration_v13000,
                              CUPTI_RUNTIME_TRACE_CBID___cudaPopCallConfiguration_v13000})
    cuptiEnableCallback(0, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, id);
}

/// The catalog's runtime callbacks and the host-function registrations, by
/// CUPTI's names. Returns how many were enabled; where CUPTI names none (an
/// older or newer CUPTI without names), the whole domain instead.
inline unsigned enableCatalogRuntimeCallbacks(CUpti_SubscriberHandle subscriber) {
  unsigned enabled = 0;
  for (std::uint32_t id = 1; id < CUPTI_RUNTIME_TRACE_CBID_SIZE; ++id) {
    const char *name = nullptr;
    if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API, id, &name) != CUPTI_SUCCESS ||
        !name || !wantsRuntimeCallback(name))
      continue;
    if (cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, id) == CUPTI_SUCCESS)
      ++enabled;
  }
  if (enabled == 0)
    enableWholeRuntimeDomain(subscriber);
  return enabled;
}

/// The driver entry points the checks flag (wantsDriverCallback: the API
/// table's driver rows, by CUPTI's names). Returns how many were enabled.
inline unsigned enableDriverSiteCallbacks(CUpti_SubscriberHandle subscriber) {
  unsigned enabled = 0;
  for (std::uint32_t id = 1; id < CUPTI_DRIVER_TRACE_CBID_SIZE; ++id) {
    const char *name = nullptr;
    if (cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, id, &name) != CUPTI_SUCCESS ||
        !name || !wantsDriverCallback(name))
      continue;
    if (cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id) == CUPTI_SUCCESS)
      ++enabled;
  }
  return enabled;
}

} // namespace streamlint::probe
