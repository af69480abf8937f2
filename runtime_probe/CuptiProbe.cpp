// libstreamlint_probe.so: the CUPTI side of the runtime probe. The driver
// loads it through CUDA_INJECTION64_PATH and calls InitializeInjection; one
// switchboard callback turns runtime API calls into plain ApiCall records for
// the handlers, aggregated per call site in a lock-free table, and the raw
// trace is written once at exit or on a fatal signal.

#include "AllocationChurn.h"
#include "ApiCatalog.h"
#include "CallParams.h"
#include "CallSiteTable.h"
#include "CallbackSelection.h"
#include "CuptiCallbackSelection.h"
#include "DriverImports.h"
#include "HostClock.h"
#include "ModuleMap.h"
#include "PinnedMemoryTracker.h"
#include "ProbeHandlers.h"
#include "RawTrace.h"
#include "SelfTime.h"
#include "StackCapture.h"
#include "StackMemo.h"
#include "ThreadState.h"

#include <cupti.h> // also brings the runtime and driver *_params structs

#include <atomic>
#include <csignal>
#include <cstddef>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

namespace streamlint::probe {
namespace {

constexpr std::size_t kSiteCapacity = 8192;
// Enough to pass cudart, the kernel stubs and Thrust/CUB's template layers
// (thrust::sort at -O0 is more than 10 frames deep; an H100 run with 10
// lost the call site of a third of its library calls). Shallow programs
// stop at the end of their stack, so they pay nothing for it.
constexpr unsigned kAppFramesKept = 20;
constexpr unsigned kMaxCallbackIds = 1024;
constexpr std::size_t kLiveAllocations = 1 << 15;

// Driver entry points the checks flag (alloc-in-loop, device-sync,
// pageable-memcpy-async). Their callbacks are turned on only in programs that
// import one of them (DriverImports.h: any driver callback makes CUPTI
// intercept every driver call cudart makes); a call nested in a runtime call
// then returns at once, one made by the application is a site of its own.
constexpr CUpti_CallbackId kDriverSiteCallbacks[] = {
    CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2,      CUPTI_DRIVER_TRACE_CBID_cuMemAllocPitch_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemAllocManaged,  CUPTI_DRIVER_TRACE_CBID_cuMemAllocHost_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemHostAlloc,     CUPTI_DRIVER_TRACE_CBID_cuMemHostRegister_v2,
    CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2,       CUPTI_DRIVER_TRACE_CBID_cuMemFreeHost,
    CUPTI_DRIVER_TRACE_CBID_cuMemHostUnregister, CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize,
    CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize, CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2, CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoDAsync_v2_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2, CUPTI_DRIVER_TRACE_CBID_cuMemcpyDtoHAsync_v2_ptsz,
};

/// Process-wide probe state; leaked on purpose so that nothing is destroyed
/// while late callbacks or signal handlers may still read it. What every
/// callback reads comes first and shares one cache line.
struct alignas(64) ProbeState {
  std::atomic<bool> stopped{false};
  std::atomic<bool> driverLaunchesOn{false}; // see enableDriverLaunches
  std::atomic<bool> wholeRuntimeDomainOn{false}; // see enableWholeRuntime
  bool stackMemo = true; // STREAMLINT_PROBE_STACK_MEMO=0 turns it off
  bool hostTime = true;  // STREAMLINT_PROBE_HOST_TIME=0: no clock (benches only)
  Unwinder unwinder = Unwinder::Libunwind;
  HostClock clock;
  CudaModules cudaModules;

  CallSiteTable table{kSiteCapacity};
  AllocationChurn churn{kLiveAllocations};
  PinnedMemoryTracker pinned;
  ModuleMap modules;
  char rawPath[1024] = {};
  CUpti_SubscriberHandle subscriber = nullptr;
  std::atomic<std::uint16_t> traitsByCallbackId[kMaxCallbackIds] = {};
  std::atomic<std::uint16_t> driverTraitsByCallbackId[kMaxCallbackIds] = {};
  std::atomic<std::uint32_t> nextThreadId{1};
  SelfTime selfTime; // STREAMLINT_PROBE_SELF_TIME=1 only
  bool selfTimed = false;
};
ProbeState *gProbe = nullptr;

/// Turns the sites' tick sums into nanoseconds (once, at the flush).
void ticksToNanoseconds() {
  if (!gProbe->clock.usesTsc())
    return;
  double nsPerTick = gProbe->clock.nanosecondsPerTick();
  gProbe->table.forEach([&](SiteRecord &site) {
    auto v = site.hostNs.load(std::memory_order_relaxed);
    site.hostNs.store(std::uint64_t(double(v) * nsPerTick), std::memory_order_relaxed);
  });
}

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

// Every cudaGetDriverEntryPoint* params struct starts with the symbol's name.
static_assert(offsetof(cudaGetDriverEntryPoint_v11030_params, symbol) == 0 &&
              offsetof(cudaGetDriverEntryPoint_ptsz_v11030_params, symbol) == 0 &&
              offsetof(cudaGetDriverEntryPointByVersion_v12050_params, symbol) == 0 &&
              offsetof(cudaGetDriverEntryPointByVersion_ptsz_v12050_params, symbol) == 0);
const char *entryPointSymbol(const void *params) {
  const char *symbol = static_cast<const cudaGetDriverEntryPoint_v11030_params *>(params)->symbol;
  return symbol ? symbol : "";
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
  if ((t.call.traits & TraitRegistersHostFunction) &&
      !gProbe->wholeRuntimeDomainOn.load(std::memory_order_relaxed))
    enableWholeRuntime(t);
  // A registrar fetched by name can register a host function unseen.
  if ((t.call.traits & TraitFetchesDriverEntryPoint) && cb->functionParams &&
      !gProbe->wholeRuntimeDomainOn.load(std::memory_order_relaxed) &&
      driverSymbolRegistersHostFunction(entryPointSymbol(cb->functionParams)))
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

/// ns of one back-to-back pair of clock reads (the least of many), which
/// every self-timed figure includes.
double clockReadPairNs() {
  std::uint64_t least = ~0ull;
  for (int i = 0; i < 1000; ++i) {
    std::uint64_t a = gProbe->clock.now(), b = gProbe->clock.now();
    least = b - a < least ? b - a : least;
  }
  return double(least) * (gProbe->clock.usesTsc() ? gProbe->clock.nanosecondsPerTick() : 1.0);
}

// ---- lifecycle: start, flush, shutdown ----------------------------------

const int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM,
                             SIGINT, SIGHUP, SIGQUIT};
struct sigaction gPreviousAction[65];

AddressRange rangeOf(const char *needle) {
  for (std::size_t i = 0; i < gProbe->modules.size(); ++i) {
    const ModuleRange &m = gProbe->modules[i];
    const char *base = std::strrchr(m.path, '/');
    if (std::strstr(base ? base + 1 : m.path, needle))
      return {m.start, m.end};
  }
  return {};
}

/// Writes the raw trace once; later calls (and calls after it) do nothing.
void flushTrace(bool fromSignal) {
  if (!gProbe || gProbe->stopped.exchange(true))
    return;
  if (!fromSignal)
    gProbe->modules.snapshot(); // libraries dlopen'ed since start
  ticksToNanoseconds(); // plain arithmetic: safe in a signal handler
  int fd = ::open(gProbe->rawPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  bool ok = fd >= 0 && writeRawTrace(fd, gProbe->table, gProbe->modules,
                                     static_cast<long>(getpid()),
                                     gProbe->table.droppedCalls());
  if (fd >= 0)
    ::close(fd);
  if (fromSignal)
    return; // no stdio in a signal handler
  if (!ok)
    std::fprintf(stderr, "streamlint-probe: cannot write the trace to %s: %s\n",
                 gProbe->rawPath, std::strerror(errno));
  if (gProbe->selfTimed)
    gProbe->selfTime.report(stderr,
                            gProbe->clock.usesTsc() ? gProbe->clock.nanosecondsPerTick() : 1.0,
                            clockReadPairNs());
  if (std::uint64_t untracked = gProbe->churn.untracked())
    std::fprintf(stderr,
                 "streamlint-probe: %llu allocations not checked for churn: "
                 "the live-allocation table was full\n",
                 static_cast<unsigned long long>(untracked));
  if (std::uint64_t dropped = gProbe->table.droppedCalls())
    std::fprintf(stderr,
                 "streamlint-probe: %llu calls not recorded: all %zu call-site "
                 "slots were in use\n",
                 static_cast<unsigned long long>(dropped),
                 gProbe->table.capacity());
}

void flushAtExit() { flushTrace(false); }

void onFatalSignal(int sig) {
  flushTrace(true);
  sigaction(sig, &gPreviousAction[sig], nullptr); // then die as intended
  raise(sig);
}

void installSignalHandlers() {
  for (int sig : kFatalSignals) {
    struct sigaction previous {};
    sigaction(sig, nullptr, &previous);
    if (previous.sa_handler == SIG_IGN)
      continue; // the program ignores it: keep it that way
    gPreviousAction[sig] = previous;
    struct sigaction action {};
    action.sa_handler = onFatalSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESETHAND | SA_NODEFER;
    sigaction(sig, &action, nullptr);
  }
}

// A forked child holds a copy of the parent's counts: it must not write them.
void onForkChild() { gProbe->stopped.store(true); }

void startProbe() {
  gProbe = new ProbeState; // leaked: see ProbeState
  if (!startThreadStates()) {
    std::fputs("streamlint-probe: no thread-specific key left; the program runs "
               "unprobed\n", stderr);
    gProbe->stopped.store(true);
    return;
  }
  const char *dir = std::getenv("STREAMLINT_PROBE_RAW_DIR");
  std::snprintf(gProbe->rawPath, sizeof(gProbe->rawPath), "%s/probe-%ld.raw",
                dir && *dir ? dir : ".", static_cast<long>(getpid()));
  if (const char *name = std::getenv("STREAMLINT_PROBE_UNWINDER");
      name && *name && !parseUnwinder(name, gProbe->unwinder))
    std::fprintf(stderr, "streamlint-probe: STREAMLINT_PROBE_UNWINDER=%s is "
                 "not libunwind, libgcc or none; using libunwind\n", name);
  if (const char *memo = std::getenv("STREAMLINT_PROBE_STACK_MEMO"))
    gProbe->stackMemo = std::strcmp(memo, "0") != 0;
  // Only to measure what the clock reads cost: the trace's host times are 0.
  if (const char *hostTime = std::getenv("STREAMLINT_PROBE_HOST_TIME"))
    gProbe->hostTime = std::strcmp(hostTime, "0") != 0;
  if (const char *selfTime = std::getenv("STREAMLINT_PROBE_SELF_TIME"))
    gProbe->selfTimed = std::strcmp(selfTime, "1") == 0;
  Unwinder wanted = gProbe->unwinder;
  gProbe->unwinder = initStackCapture(wanted);
  if (gProbe->unwinder != wanted) {
    const char *why = dlerror();
    std::fprintf(stderr, "streamlint-probe: cannot load libunwind.so.8 (%s); "
                 "using libgcc's slower unwinder (Debian: apt-get install "
                 "libunwind8)\n", why ? why : "unavailable");
  }
  gProbe->clock.start();
  gProbe->modules.snapshot();
  gProbe->cudaModules.driver = rangeOf("libcuda.so");
  gProbe->cudaModules.cupti = rangeOf("libcupti.so");
  gProbe->cudaModules.probe = rangeOf("libstreamlint_probe.so");

  CUpti_SubscriberHandle subscriber;
  CUptiResult r = cuptiSubscribe(
      &subscriber, gProbe->selfTimed ? timedSwitchboard : switchboard, nullptr);
  if (r != CUPTI_SUCCESS) {
    const char *why = "unknown error";
    cuptiGetResultString(r, &why);
    std::fprintf(stderr,
                 "streamlint-probe: CUPTI refused the subscription (%s). Only "
                 "one CUPTI client may attach to a process: is it running "
                 "under Nsight Systems, Nsight Compute or compute-sanitizer? "
                 "The program runs unprobed and no trace is written.\n", why);
    gProbe->stopped.store(true);
    return;
  }
  gProbe->subscriber = subscriber;
  // Only the catalog's runtime calls, until a host function is registered
  // (CallbackSelection.h): every enabled callback costs CUPTI's dispatch.
  const char *forced = std::getenv("STREAMLINT_PROBE_RUNTIME_CALLBACKS");
  if (forced && *forced && std::strcmp(forced, "all") != 0 &&
      std::strcmp(forced, "catalog") != 0)
    std::fprintf(stderr, "streamlint-probe: STREAMLINT_PROBE_RUNTIME_CALLBACKS=%s "
                 "is not all or catalog; using catalog\n", forced);
  if (runtimeCallbacksWanted(forced) == RuntimeCallbacks::All ||
      enableCatalogRuntimeCallbacks(subscriber) == 0) {
    enableWholeRuntimeDomain(subscriber);
    gProbe->wholeRuntimeDomainOn.store(true);
  }
  if (driverSitesWanted())
    for (CUpti_CallbackId id : kDriverSiteCallbacks)
      cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
  std::atexit(flushAtExit);
  pthread_atfork(nullptr, nullptr, onForkChild);
  installSignalHandlers();
}

} // namespace
} // namespace streamlint::probe

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  static std::atomic<bool> started{false};
  if (started.exchange(true))
    return 1; // idempotent: the driver may call it more than once
  try {
    streamlint::probe::startProbe();
  } catch (...) {
    std::fputs("streamlint-probe: initialization failed; the program runs "
               "unprobed\n", stderr);
  }
  return 1;
}
