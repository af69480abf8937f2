// The probe's callback path: one CUPTI callback (the switchboard) turns each
// runtime or driver API call into a plain ApiCall record for the handlers,
// aggregated per call site in the lock-free table (ProbeState.h). Every
// enabled callback of every CUDA call comes through here: keep it cheap.

#include "ApiCatalog.h"
#include "CallParams.h"
#include "CallbackSelection.h"
#include "CuptiCallbackSelection.h"
#include "ProbeHandlers.h"
#include "ProbeState.h"
#include "StackMemo.h"
#include "ThreadState.h"

#include <cupti.h> // also brings the runtime and driver *_params structs

namespace streamlint::probe {
namespace {

std::uint16_t traitsFor(CUpti_CallbackId cbid, const char *name, bool driver) {
  if (cbid >= kMaxCallbackIds)
    return name ? classifyApi(name) : TraitKnown;
  auto &slot = driver ? gProbe->driverTraitsByCallbackId[cbid]
                      : gProbe->traitsByCallbackId[cbid];
  std::uint16_t t = slot.load(std::memory_order_relaxed);
  if (!(t & TraitKnown)) { // first call of this API: classify once
    t = name ? classifyApi(name) : TraitKnown;
    if (!driver && name && registersHostFunction(name))
      t |= TraitRegistersHostFunction;
    if (!driver && name && fetchesDriverEntryPoint(name))
      t |= TraitFetchesDriverEntryPoint;
    slot.store(t, std::memory_order_relaxed);
  }
  return t;
}

bool onDriverThread(ThreadState &t) {
  if (t.driverThread < 0) { // once per thread: a full unwind
    std::uintptr_t pcs[kMaxCapture];
    Unwinder unwinder = gProbe->unwinder == Unwinder::None ? Unwinder::Libunwind
                                                           : gProbe->unwinder;
    unsigned n = captureStack(pcs, kMaxCapture, 0, gProbe->cudaModules, unwinder);
    t.driverThread = isDriverOwnedStack(pcs, n, gProbe->cudaModules);
  }
  return t.driverThread == 1;
}

// The stream of a launch whose runtime entry point has no params struct
// (shared cudart's __cudaLaunchKernel) comes from the nested driver launch.
// Static cudart, nvcc's default, reports launches as cudaLaunchKernel with
// params: the driver callbacks (an enter and an exit per launch, a fifth of
// the probe's cost on a launch) are only turned on once a launch needs them.
// CUPTI checks the enable flags when it dispatches, so the nested driver call
// of the very launch that turns them on is already seen.
void enableDriverLaunches(ThreadState &t) {
  if (gProbe->driverLaunchesOn.exchange(true))
    return;
  t.inProbe = true;
  for (CUpti_CallbackId id :
       {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz})
    cuptiEnableCallback(1, gProbe->subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
  t.inProbe = false;
}

// The first registration of a host function turns on the runtime calls the
// catalog leaves off: api-in-host-callback reports every CUDA call on the
// callback thread (CallbackSelection.h). CUPTI honours the change at its next
// dispatch, and the host function cannot run before its registration.
void enableWholeRuntime(ThreadState &t) {
  if (gProbe->wholeRuntimeDomainOn.exchange(true))
    return;
  t.inProbe = true;
  enableWholeRuntimeDomain(gProbe->subscriber);
  t.inProbe = false;
}

/// A registration of a host function, or the fetch of a driver entry point
/// that registers one (through which it can be registered unseen).
bool opensHostFunctionPath(std::uint16_t traits, const CUpti_CallbackData *cb) {
  if (traits & TraitRegistersHostFunction)
    return true;
  return cb->functionParams &&
         driverSymbolRegistersHostFunction(fetchedEntryPointSymbol(cb->functionParams));
}

constexpr std::uint16_t kInteresting = TraitStreamOrdered | TraitMemcpyAsync |
                                       TraitAllocation | TraitSynchronization;
// Host time is read only where some evidence reports it: allocations
// (alloc-in-loop), copies from pageable memory (pageable-memcpy-async's cost)
// and device-wide waits (device-sync). A launch, a pinned copy or a wait on
// the program's own stream is not timed: two clock reads are a tenth of a
// launch's budget.
bool reportsHostTime(const ApiCall &call) {
  if (!gProbe->hostTime)
    return false;
  if (call.traits & TraitAllocation)
    return true;
  if (call.traits & TraitMemcpyAsync)
    return call.hostMemory == HostMemory::Pageable;
  if (call.traits & TraitSynchronization)
    return (call.traits & TraitDeviceWide) || call.stream == ObservedStream::Legacy;
  return false;
}

__attribute__((always_inline)) inline void onRuntimeEnter(ThreadState &t, CUpti_CallbackId cbid,
                           const CUpti_CallbackData *cb, bool driver = false) {
  if (t.depth++ > 0)
    return; // cudart calling itself: the outermost call is the site
  t.outerId = cbid;
  t.outerDriver = driver;
  t.call = ApiCall{};
  t.call.traits = traitsFor(cbid, cb->functionName, driver);
  if ((t.call.traits & (TraitRegistersHostFunction | TraitFetchesDriverEntryPoint)) &&
      !gProbe->wholeRuntimeDomainOn.load(std::memory_order_relaxed) &&
      opensHostFunctionPath(t.call.traits, cb))
    enableWholeRuntime(t);
  // No check looks at this call (cudaGetLastError, cudaGetDevice, ...) unless
  // it runs on the driver's callback thread: no params, no clock, no unwind.
  t.skip = !(t.call.traits & kInteresting) && !onDriverThread(t);
  if (t.skip)
    return;
  ParamsContext context{gProbe->pinned, t.pinnedCache, t.inProbe};
  if (driver)
    readDriverParams(cbid, cb->functionParams, t.call, context);
  else if (cb->functionParams)
    readParams(cbid, cb->functionParams, t.call, context);
  if ((t.call.traits & TraitLaunch) && t.call.stream == ObservedStream::Unknown &&
      !gProbe->driverLaunchesOn.load(std::memory_order_relaxed))
    enableDriverLaunches(t);
  t.startTicks = reportsHostTime(t.call) ? gProbe->clock.now() : 0;
}

__attribute__((always_inline)) inline void onRuntimeExit(ThreadState &t, CUpti_CallbackId cbid,
                                                         const CUpti_CallbackData *cb,
                                                         bool driver = false) {
  // An exit whose enter was not delivered: a call already in flight when
  // enableWholeRuntime turned its callback on (none in flight, or it is not
  // the outermost call's).
  if (t.depth == 0 || (t.depth == 1 && (cbid != t.outerId || driver != t.outerDriver)))
    return;
  if (--t.depth > 0 || t.skip)
    return;
  ApiCall &call = t.call;
  call.hostNs = t.startTicks ? gProbe->clock.now() - t.startTicks : 0; // ticks until the flush
  if (cb->functionReturnValue) // cudaError_t or CUresult: both an int enum
    call.result = *static_cast<const int *>(cb->functionReturnValue);
  if (call.addressOut && call.result == 0)
    call.address = *static_cast<const std::uintptr_t *>(call.addressOut);
  call.onCallbackThread = onDriverThread(t);
  // Only the application's frames: the resolver never looks at CUDA's or the
  // probe's, and leaving them out of the key makes hashing cheaper. A stack
  // this thread saw before is recognized without a walk (StackMemo.h).
  SiteRecord *site = captureSite(t.memo, gProbe->stackMemo, gProbe->table,
                                 cb->functionName, call.traits, kAppFramesKept,
                                 gProbe->cudaModules, gProbe->unwinder, &t.walkDepth);
  if (!site)
    return;
  recordCall(*site, call);
  if (call.traits & TraitAllocation) {
    if (!t.id)
      t.id = gProbe->nextThreadId.fetch_add(1, std::memory_order_relaxed);
    call.thread = t.id;
    handleMemoryEvent(*site, call, gProbe->churn, gProbe->pinned);
  }
}

// The stream of a launch whose runtime entry point has no params struct.
__attribute__((always_inline)) inline void
onDriverLaunch(ThreadState &t, CUpti_CallbackId cbid, const CUpti_CallbackData *cb) {
  ApiCall &call = t.call;
  if (t.depth == 0 || t.skip || !(call.traits & TraitLaunch) ||
      call.stream != ObservedStream::Unknown || !cb->functionParams)
    return;
  CUstream stream = nullptr;
  bool perThread = false;
  switch (cbid) {
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    stream = static_cast<const cuLaunchKernel_params *>(cb->functionParams)->hStream;
    break;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    stream = static_cast<const cuLaunchKernel_ptsz_params *>(cb->functionParams)->hStream;
    perThread = true;
    break;
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
  case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
    auto *p = static_cast<const cuLaunchKernelEx_params *>(cb->functionParams);
    stream = p->config ? p->config->hStream : nullptr;
    perThread = cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz;
    break;
  }
  default:
    return;
  }
  bool legacy = api::isLegacyStreamHandle(reinterpret_cast<std::uintptr_t>(stream),
                               perThread || (call.traits & TraitPerThread));
  call.stream = legacy ? ObservedStream::Legacy : ObservedStream::Other;
}

bool isDriverLaunch(CUpti_CallbackId cbid) {
  return cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz;
}

/// The one CUPTI callback: dispatches on domain and site.
// Inlined callees keep the probe's own frames, which every unwind walks
// through, to one.
__attribute__((always_inline)) inline void dispatch(ThreadState &t, CUpti_CallbackDomain domain,
                                                    CUpti_CallbackId cbid, const void *data) {
  auto *cb = static_cast<const CUpti_CallbackData *>(data);
  bool enter = cb->callbackSite == CUPTI_API_ENTER;
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    if (enter)
      onRuntimeEnter(t, cbid, cb);
    else
      onRuntimeExit(t, cbid, cb);
  } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API) {
    if (isDriverLaunch(cbid)) {
      if (enter)
        onDriverLaunch(t, cbid, cb);
    } else if (enter) { // a driver entry point the checks flag
      onRuntimeEnter(t, cbid, cb, /*driver=*/true);
    } else {
      onRuntimeExit(t, cbid, cb, /*driver=*/true);
    }
  }
}

} // namespace

void CUPTIAPI switchboard(void *, CUpti_CallbackDomain domain,
                          CUpti_CallbackId cbid, const void *data) {
  ThreadState *t = threadState();
  if (!t || t->inProbe || gProbe->stopped.load(std::memory_order_relaxed))
    return;
  dispatch(*t, domain, cbid, data);
}

// The same, timing itself (STREAMLINT_PROBE_SELF_TIME=1, SelfTime.h).
void CUPTIAPI timedSwitchboard(void *, CUpti_CallbackDomain domain,
                               CUpti_CallbackId cbid, const void *data) {
  std::uint64_t start = gProbe->clock.now();
  ThreadState *t = threadState();
  if (!t || t->inProbe || gProbe->stopped.load(std::memory_order_relaxed))
    return;
  dispatch(*t, domain, cbid, data);
  gProbe->selfTime.add(selfTimeKindOf(t->call.traits), gProbe->clock.now() - start);
}


} // namespace streamlint::probe
