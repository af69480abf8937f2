// libstreamlint_probe.so: the CUPTI side of the runtime probe. The driver
// loads it through CUDA_INJECTION64_PATH and calls InitializeInjection; one
// switchboard callback turns runtime API calls into plain ApiCall records for
// the handlers, aggregated per call site in a lock-free table, and the raw
// trace is written once at exit or on a fatal signal.

#include "ApiCatalog.h"
#include "CallSiteTable.h"
#include "ModuleMap.h"
#include "ProbeHandlers.h"
#include "RawTrace.h"
#include "StackCapture.h"

#include <cupti.h> // also brings the runtime and driver *_params structs

#include <atomic>
#include <csignal>
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
constexpr unsigned kAppFramesKept = 10; // enough to pass cudart and stubs
constexpr unsigned kMaxCallbackIds = 1024;

/// Process-wide probe state; leaked on purpose so that nothing is destroyed
/// while late callbacks or signal handlers may still read it.
struct ProbeState {
  CallSiteTable table{kSiteCapacity};
  ModuleMap modules;
  CudaModules cudaModules;
  char rawPath[1024] = {};
  std::atomic<bool> stopped{false};
  std::atomic<std::uint16_t> traitsByCallbackId[kMaxCallbackIds] = {};
};
ProbeState *gProbe = nullptr;

/// Per-thread reentrancy guard and the call in flight.
struct ThreadState {
  int depth = 0;          // nesting of runtime API calls
  bool inProbe = false;   // the probe's own CUDA calls
  signed char driverThread = -1; // -1 unknown, 0 no, 1 yes
  std::uint64_t startNs = 0;
  ApiCall call;
};
thread_local ThreadState tThread;

std::uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::uint64_t(ts.tv_sec) * 1000000000ull + ts.tv_nsec;
}

std::uint16_t traitsFor(CUpti_CallbackId cbid, const char *name) {
  if (cbid >= kMaxCallbackIds)
    return name ? classifyApi(name) : TraitKnown;
  std::uint16_t t = gProbe->traitsByCallbackId[cbid].load(std::memory_order_relaxed);
  if (!(t & TraitKnown)) { // first call of this API: classify once
    t = name ? classifyApi(name) : TraitKnown;
    gProbe->traitsByCallbackId[cbid].store(t, std::memory_order_relaxed);
  }
  return t;
}

StreamKind streamKind(const void *stream, std::uint16_t traits) {
  return isLegacyStream(reinterpret_cast<std::uintptr_t>(stream),
                        traits & TraitPerThread)
             ? StreamKind::Legacy
             : StreamKind::Other;
}

// Pageable host memory is unknown to the driver: the query fails for it.
HostMemory hostMemoryOf(const void *ptr) {
  CUmemorytype type{};
  tThread.inProbe = true;
  CUresult r = cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                     reinterpret_cast<CUdeviceptr>(ptr));
  tThread.inProbe = false;
  if (r != CUDA_SUCCESS)
    return HostMemory::Pageable;
  return type == CU_MEMORYTYPE_HOST ? HostMemory::Pinned : HostMemory::Unknown;
}

void noteCopy(ApiCall &call, const void *dst, const void *src,
              cudaMemcpyKind kind, std::size_t bytes, const void *stream) {
  call.stream = streamKind(stream, call.traits);
  call.bytes = bytes;
  HostMemory d = HostMemory::Unknown, s = HostMemory::Unknown;
  if (dst && (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDefault ||
              kind == cudaMemcpyHostToHost))
    d = hostMemoryOf(dst);
  if (src && (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDefault ||
              kind == cudaMemcpyHostToHost))
    s = hostMemoryOf(src);
  if (d == HostMemory::Pageable || s == HostMemory::Pageable)
    call.hostMemory = HostMemory::Pageable;
  else if (d == HostMemory::Pinned || s == HostMemory::Pinned)
    call.hostMemory = HostMemory::Pinned;
}

// Reads the stream (and, for copies, the host side) from the params struct.
// `__cudaLaunchKernel` has no params struct: its stream comes from the nested
// driver launch (onDriverLaunch).
void readParams(CUpti_CallbackId cbid, const void *p, ApiCall &call) {
#define STREAM_OF(ID, TYPE, EXPR)                                              \
  case CUPTI_RUNTIME_TRACE_CBID_##ID: {                                        \
    auto *a = static_cast<const TYPE *>(p);                                    \
    call.stream = streamKind(EXPR, call.traits);                               \
    return;                                                                    \
  }
#define COPY_OF(ID, TYPE, DST, SRC, BYTES)                                     \
  case CUPTI_RUNTIME_TRACE_CBID_##ID: {                                        \
    auto *a = static_cast<const TYPE *>(p);                                    \
    noteCopy(call, DST, SRC, a->kind, BYTES, a->stream);                       \
    return;                                                                    \
  }
  switch (cbid) {
    STREAM_OF(cudaLaunchKernel_v7000, cudaLaunchKernel_v7000_params, a->stream)
    STREAM_OF(cudaLaunchKernel_ptsz_v7000, cudaLaunchKernel_ptsz_v7000_params, a->stream)
    STREAM_OF(cudaLaunchKernelExC_v11060, cudaLaunchKernelExC_v11060_params, a->config ? a->config->stream : nullptr)
    STREAM_OF(cudaLaunchKernelExC_ptsz_v11060, cudaLaunchKernelExC_ptsz_v11060_params, a->config ? a->config->stream : nullptr)
    STREAM_OF(cudaMemsetAsync_v3020, cudaMemsetAsync_v3020_params, a->stream)
    STREAM_OF(cudaMemsetAsync_ptsz_v7000, cudaMemsetAsync_ptsz_v7000_params, a->stream)
    STREAM_OF(cudaEventRecord_v3020, cudaEventRecord_v3020_params, a->stream)
    STREAM_OF(cudaEventRecord_ptsz_v7000, cudaEventRecord_ptsz_v7000_params, a->stream)
    STREAM_OF(cudaStreamWaitEvent_v3020, cudaStreamWaitEvent_v3020_params, a->stream)
    STREAM_OF(cudaLaunchHostFunc_v10000, cudaLaunchHostFunc_v10000_params, a->stream)
    STREAM_OF(cudaStreamAddCallback_v5000, cudaStreamAddCallback_v5000_params, a->stream)
    STREAM_OF(cudaGraphLaunch_v10000, cudaGraphLaunch_v10000_params, a->stream)
    COPY_OF(cudaMemcpyAsync_v3020, cudaMemcpyAsync_v3020_params, a->dst, a->src, a->count)
    COPY_OF(cudaMemcpyAsync_ptsz_v7000, cudaMemcpyAsync_ptsz_v7000_params, a->dst, a->src, a->count)
    COPY_OF(cudaMemcpy2DAsync_v3020, cudaMemcpy2DAsync_v3020_params, a->dst, a->src, a->width * a->height)
    COPY_OF(cudaMemcpy2DAsync_ptsz_v7000, cudaMemcpy2DAsync_ptsz_v7000_params, a->dst, a->src, a->width * a->height)
    COPY_OF(cudaMemcpyToSymbolAsync_v3020, cudaMemcpyToSymbolAsync_v3020_params, nullptr, a->src, a->count)
    COPY_OF(cudaMemcpyFromSymbolAsync_v3020, cudaMemcpyFromSymbolAsync_v3020_params, a->dst, nullptr, a->count)
  default:
    return;
  }
#undef STREAM_OF
#undef COPY_OF
}

bool onDriverThread() {
  if (tThread.driverThread < 0) { // once per thread: a full unwind
    std::uintptr_t pcs[256];
    unsigned n = captureStack(pcs, 256, 0, gProbe->cudaModules);
    tThread.driverThread = isDriverOwnedStack(pcs, n, gProbe->cudaModules);
  }
  return tThread.driverThread == 1;
}

void onRuntimeEnter(CUpti_CallbackId cbid, const CUpti_CallbackData *cb) {
  if (tThread.depth++ > 0)
    return; // cudart calling itself: the outermost call is the site
  tThread.call = ApiCall{};
  tThread.call.traits = traitsFor(cbid, cb->functionName);
  if (cb->functionParams)
    readParams(cbid, cb->functionParams, tThread.call);
  tThread.startNs = nowNs();
}

void onRuntimeExit(const CUpti_CallbackData *cb) {
  if (--tThread.depth > 0)
    return;
  ApiCall &call = tThread.call;
  call.hostNs = nowNs() - tThread.startNs;
  if (cb->functionReturnValue)
    call.result = *static_cast<const cudaError_t *>(cb->functionReturnValue);
  call.onCallbackThread = onDriverThread();
  constexpr std::uint16_t kInteresting = TraitStreamOrdered | TraitMemcpyAsync |
                                         TraitAllocation | TraitSynchronization;
  if (!(call.traits & kInteresting) && !call.onCallbackThread)
    return; // no check looks at this call: skip the unwind
  std::uintptr_t pcs[kMaxFrames];
  unsigned n = captureStack(pcs, kMaxFrames, kAppFramesKept, gProbe->cudaModules);
  std::uint64_t key = hashStack(pcs, n, cb->functionName);
  if (SiteRecord *site = gProbe->table.acquire(key, cb->functionName,
                                               call.traits, pcs, n))
    recordCall(*site, call);
}

// The stream of a launch whose runtime entry point has no params struct.
void onDriverLaunch(CUpti_CallbackId cbid, const CUpti_CallbackData *cb) {
  ApiCall &call = tThread.call;
  if (tThread.depth == 0 || !(call.traits & TraitLaunch) ||
      call.stream != StreamKind::Unknown || !cb->functionParams)
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
  bool legacy = isLegacyStream(reinterpret_cast<std::uintptr_t>(stream),
                               perThread || (call.traits & TraitPerThread));
  call.stream = legacy ? StreamKind::Legacy : StreamKind::Other;
}

/// The one CUPTI callback: dispatches on domain and site.
void CUPTIAPI switchboard(void *, CUpti_CallbackDomain domain,
                          CUpti_CallbackId cbid, const void *data) {
  if (tThread.inProbe || gProbe->stopped.load(std::memory_order_relaxed))
    return;
  auto *cb = static_cast<const CUpti_CallbackData *>(data);
  bool enter = cb->callbackSite == CUPTI_API_ENTER;
  if (domain == CUPTI_CB_DOMAIN_RUNTIME_API) {
    if (enter)
      onRuntimeEnter(cbid, cb);
    else
      onRuntimeExit(cb);
  } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && enter) {
    onDriverLaunch(cbid, cb);
  }
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
  const char *dir = std::getenv("STREAMLINT_PROBE_RAW_DIR");
  std::snprintf(gProbe->rawPath, sizeof(gProbe->rawPath), "%s/probe-%ld.raw",
                dir && *dir ? dir : ".", static_cast<long>(getpid()));
  gProbe->modules.snapshot();
  gProbe->cudaModules.driver = rangeOf("libcuda.so");
  gProbe->cudaModules.cupti = rangeOf("libcupti.so");
  gProbe->cudaModules.probe = rangeOf("libstreamlint_probe.so");

  CUpti_SubscriberHandle subscriber;
  CUptiResult r = cuptiSubscribe(&subscriber, switchboard, nullptr);
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
  cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
  for (CUpti_CallbackId id :
       {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz})
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
