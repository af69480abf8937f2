// The floor under the probe: an injection library that subscribes to CUPTI
// exactly as the probe does, with an empty callback, and records nothing.
// Whatever a program pays under it is CUPTI's own cost; bench/probe/
// run_bench.sh runs it as a variant (floor=libcupti_floor.so) so that the
// probe's share can be told from CUPTI's.
//
// Subscription: the probe's (CuptiCallbackSelection.h): the catalog's
// runtime callbacks and the host-function registrations, or the whole
// runtime domain less __cudaPush/PopCallConfiguration with
// STREAMLINT_PROBE_RUNTIME_CALLBACKS=all (what the probe subscribed before
// issue 14's last round). Unlike the probe it does not widen the
// subscription at a registration: the benches register no host function.
// STREAMLINT_FLOOR_COUNT=1 counts the callbacks per API and prints them to
// stderr at exit (which calls fire nested callbacks). Built by CMake
// (target cupti_floor, build/lib/libcupti_floor.so).
#include "CuptiCallbackSelection.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
using namespace streamlint::probe;

constexpr unsigned kMaxIds = 1024;
std::atomic<unsigned long> gCounts[2][kMaxIds]; // [driver?][cbid], enter sites

void CUPTIAPI emptyCallback(void *, CUpti_CallbackDomain, CUpti_CallbackId,
                            const void *) {}

void CUPTIAPI countingCallback(void *, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                               const void *data) {
  auto *cb = static_cast<const CUpti_CallbackData *>(data);
  if (cb->callbackSite == CUPTI_API_ENTER && id < kMaxIds)
    gCounts[domain == CUPTI_CB_DOMAIN_DRIVER_API][id].fetch_add(1, std::memory_order_relaxed);
}

void printCounts() {
  for (int driver = 0; driver < 2; ++driver)
    for (unsigned id = 0; id < kMaxIds; ++id)
      if (unsigned long n = gCounts[driver][id].load()) {
        const char *name = nullptr;
        cuptiGetCallbackName(driver ? CUPTI_CB_DOMAIN_DRIVER_API : CUPTI_CB_DOMAIN_RUNTIME_API,
                             id, &name);
        std::fprintf(stderr, "cupti_floor: %s %s %lu\n", driver ? "driver" : "runtime",
                     name ? name : "?", n);
      }
}
} // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  static bool started = false;
  if (started)
    return 1;
  started = true;
  const char *count = std::getenv("STREAMLINT_FLOOR_COUNT");
  bool counting = count && std::strcmp(count, "1") == 0;
  CUpti_SubscriberHandle subscriber;
  if (cuptiSubscribe(&subscriber, counting ? countingCallback : emptyCallback, nullptr) !=
      CUPTI_SUCCESS)
    return 1;
  const char *forced = std::getenv("STREAMLINT_PROBE_RUNTIME_CALLBACKS");
  if (runtimeCallbacksWanted(forced) == RuntimeCallbacks::All)
    enableWholeRuntimeDomain(subscriber);
  else
    enableCatalogRuntimeCallbacks(subscriber);
  if (counting)
    std::atexit(printCounts);
  return 1;
}
