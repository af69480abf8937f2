// libstreamlint_probe.so's lifecycle. The driver loads it through
// CUDA_INJECTION64_PATH and calls InitializeInjection, which reads the
// probe's settings and subscribes the switchboard (Switchboard.cpp) to the
// callbacks the checks read; the raw trace is written once at exit or on a
// fatal signal.

#include "CallbackSelection.h"
#include "CuptiCallbackSelection.h"
#include "DriverImports.h"
#include "ExitHook.h"
#include "ProbeState.h"
#include "RawTrace.h"
#include "ThreadState.h"

#include <cupti.h>

#include <csignal>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <ctime>
#include <unistd.h>

namespace streamlint::probe {

ProbeState *gProbe = nullptr;

namespace {

/// Turns the sites' tick sums into nanoseconds (once, at the flush).
void ticksToNanoseconds() {
  if (!gProbe->clock.usesTsc())
    return;
  double nsPerTick = gProbe->clock.nanosecondsPerTick();
  gProbe->table.forEach([&](SiteRecord &site) {
    auto v = site.count(Counter::HostNs);
    site[Counter::HostNs].store(std::uint64_t(double(v) * nsPerTick), std::memory_order_relaxed);
  });
}

/// ns of one back-to-back pair of clock reads (the least of many), which
/// every self-timed figure includes.
double clockReadPairNs() {
  std::uint64_t least = ~0ull;
  for (int i = 0; i < 1000; ++i) {
    std::uint64_t a = gProbe->clock.now(), b = gProbe->clock.now();
    least = b - a < least ? b - a : least;
  }
  return double(least) * gProbe->clock.nanosecondsPerTick();
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
  int fd = openRawTrace(gProbe->rawPath);
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
    gProbe->selfTime.report(stderr, gProbe->clock.nanosecondsPerTick(), clockReadPairNs());
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

/// STREAMLINT_PROBE_TIMING=1: the probe's fixed costs on stderr (start-up:
/// settings, unwinder, module snapshot, import scan, subscription; flush).
bool gTiming = false;
double millisecondsSince(const timespec &start) {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return double(now.tv_sec - start.tv_sec) * 1e3 + double(now.tv_nsec - start.tv_nsec) / 1e6;
}

void flushAtExit() {
  timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  bool first = gProbe && !gProbe->stopped.load();
  flushTrace(false);
  if (gTiming && first)
    std::fprintf(stderr, "streamlint-probe: pid %ld flush %.2f ms\n",
                 static_cast<long>(getpid()), millisecondsSince(start));
}

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
  timespec started;
  clock_gettime(CLOCK_MONOTONIC, &started);
  if (const char *timing = std::getenv("STREAMLINT_PROBE_TIMING"))
    gTiming = std::strcmp(timing, "1") == 0;
  gProbe = new ProbeState; // leaked: see ProbeState
  if (!startThreadStates()) {
    std::fputs("streamlint-probe: no thread-specific key left; the program runs "
               "unprobed\n", stderr);
    gProbe->stopped.store(true);
    return;
  }
  const char *dir = std::getenv("STREAMLINT_PROBE_RAW_DIR");
  if (!formatRawTracePath(dir, static_cast<long>(getpid()), gProbe->rawPath,
                          sizeof(gProbe->rawPath))) {
    std::fprintf(stderr, "streamlint-probe: STREAMLINT_PROBE_RAW_DIR is too long "
                 "(%zu bytes; the trace's path must fit in %zu): the program runs "
                 "unprobed\n", std::strlen(dir), sizeof(gProbe->rawPath) - 1);
    gProbe->stopped.store(true);
    return;
  }
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
  timespec scanStart;
  clock_gettime(CLOCK_MONOTONIC, &scanStart);
  bool driverSites = driverSitesWanted();
  double scanMs = millisecondsSince(scanStart);
  // The driver entry points the checks flag (the API table's driver rows,
  // CallbackSelection.h), only in programs that import one of them: any
  // driver callback makes CUPTI intercept every driver call cudart makes; a
  // call nested in a runtime call then returns at once, one made by the
  // application is a site of its own.
  unsigned driverCallbacks = driverSites ? enableDriverSiteCallbacks(subscriber) : 0;
  std::atexit(flushAtExit);
  // os._exit (every multiprocessing worker) and _exit skip atexit.
  unsigned exitHooks = hookExitImports(flushAtExit);
  pthread_atfork(nullptr, nullptr, onForkChild);
  installSignalHandlers();
  if (gTiming)
    std::fprintf(stderr,
                 "streamlint-probe: pid %ld start-up %.2f ms (import scan %.2f ms, "
                 "%zu modules, %u driver callbacks, %u _exit imports hooked)\n",
                 static_cast<long>(getpid()), millisecondsSince(started), scanMs,
                 gProbe->modules.size(), driverCallbacks, exitHooks);
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
