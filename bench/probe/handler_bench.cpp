// Where the probe's per-call time goes, without a GPU: drives the probe's
// per-callback path (the stages of Switchboard.cpp's onRuntimeEnter/Exit on
// the core library: classification, pinned-range look-up, host clock, call
// site capture, table, handlers, churn) with synthetic calls made the way
// CUPTI makes them: from a callback below a chain of "CUDA" frames (a
// section of this program given to the probe as libcuda's range) below
// "cudart" and application frames. Prints ns per call for each stage alone
// and for each call kind's whole path, with the stack memo (StackMemo.h) on
// and off, against the bare frame chain in the same run. The last rows
// run each kind's whole path with cold caches: between calls the bench
// writes over 1 MiB (about what the driver's own work in a real call evicts
// from L1/L2) or 64 MiB (past L3) of other memory, and times each call
// alone, as a program that does real work between CUDA calls makes the
// probe's data cold.
//   probe_handler_bench [CALLS] [APP_DEPTH]
// CALLS per measurement (default 200000), APP_DEPTH application frames
// above the "cudart" ones (default 4; 20 or more for Thrust-like stacks).

#include "AllocationChurn.h"
#include "ApiCatalog.h"
#include "CallSiteTable.h"
#include "HostClock.h"
#include "PinnedMemoryTracker.h"
#include "ProbeHandlers.h"
#include "StackCapture.h"
#include "StackMemo.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

using namespace streamlint::probe;

extern "C" char __start_fakecuda[], __stop_fakecuda[];

namespace {

constexpr unsigned kAppFramesKept = 32; // as ProbeState.h
constexpr int kCudaFrames = 8;          // CUPTI and libcuda under the callback

struct Probe {
  CallSiteTable table{8192};
  AllocationChurn churn{1 << 15};
  PinnedMemoryTracker pinned;
  HostClock clock;
  CudaModules modules;
  Unwinder unwinder = Unwinder::Libunwind;
  StackMemo memo;
  bool useMemo = true;
  unsigned walkDepth = 0;
  PinnedMemoryTracker::ThreadCache pinnedCache;
};
Probe *gProbe;

/// What one synthetic call is and which stages it runs.
struct Kind {
  const char *name;
  const char *api; // CUPTI's name: the probe's site salt
  std::uint16_t traits;
  bool copy, pageable, timed, allocation;
};

std::uintptr_t gPinnedBuffer, gPageableBuffer;
std::uintptr_t gNextAddress = 0x7f0000000000;

enum Stage : unsigned {
  StageNone = 0, StageClassify = 1, StageClock = 2, StageSite = 4, StageRecord = 8,
  StageAll = 15,
};
unsigned gStages = StageAll;
const Kind *gKind;

// The switchboard: onRuntimeEnter's and onRuntimeExit's work for one call.
__attribute__((noinline)) void callback() {
  Probe &p = *gProbe;
  ApiCall call{};
  call.traits = gKind->traits;
  if (gStages & StageClassify) {
    call.stream = ObservedStream::Other;
    if (gKind->copy)
      call.hostMemory = p.pinned.classify(gKind->pageable ? gPageableBuffer : gPinnedBuffer,
                                          p.pinnedCache, [](std::uintptr_t, void *) {
                                            return HostMemory::Pageable;
                                          }, nullptr);
  }
  std::uint64_t start = (gStages & StageClock) && gKind->timed ? p.clock.now() : 0;
  call.hostNs = start ? p.clock.now() - start : 0;
  if (!(gStages & StageSite))
    return;
  SiteRecord *site = captureSite(p.memo, p.useMemo, p.table, gKind->api, call.traits,
                                 kAppFramesKept, p.modules, p.unwinder, &p.walkDepth);
  if (!site || !(gStages & StageRecord))
    return;
  recordCall(*site, call);
  if (gKind->allocation) { // cudaMalloc and cudaFree in turn, as in a loop
    static bool freeNext = false;
    static const std::uint16_t freeTraits = classifyApi("cudaFree");
    if (freeNext)
      call.traits = freeTraits;
    call.address = freeNext ? gNextAddress : (gNextAddress += 4096);
    call.bytes = 4096;
    freeNext = !freeNext;
    handleMemoryEvent(*site, call, p.churn, p.pinned);
  }
}

// "CUPTI and libcuda": frames in a section the probe is told is libcuda.
#define CUDA_FRAME __attribute__((noinline, section("fakecuda")))
CUDA_FRAME void cudaFrame(int left) {
  if (left == 0)
    callback();
  else
    cudaFrame(left - 1);
  asm volatile("" ::: "memory"); // not a tail call: one frame per level
}

// "cudart" (static, in the application) and the application's frames.
__attribute__((noinline)) void cudartFrame(int left) {
  if (left == 0)
    cudaFrame(kCudaFrames);
  else
    cudartFrame(left - 1);
  asm volatile("" ::: "memory");
}
__attribute__((noinline)) void appFrame(int left) {
  if (left == 0)
    cudartFrame(2);
  else
    appFrame(left - 1);
  asm volatile("" ::: "memory");
}

double nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/// ns per call of `calls` synthetic calls from `sites` distinct call sites
/// (a loop that calls the API from that many lines), median of 5.
__attribute__((noinline)) double timeCalls(long calls, int appDepth, int sites) {
  std::vector<double> runs;
  for (int r = 0; r < 5; ++r) {
    double t0 = nowNs();
    for (long i = 0; i < calls; ++i) {
      switch (sites == 1 ? 0 : i % sites) { // distinct return addresses
      case 0: appFrame(appDepth); break;
      case 1: appFrame(appDepth); break;
      case 2: appFrame(appDepth); break;
      default: appFrame(appDepth); break;
      }
      asm volatile("" ::: "memory");
    }
    runs.push_back((nowNs() - t0) / calls);
  }
  std::sort(runs.begin(), runs.end());
  return runs[2];
}

/// ns per call with caches cold: `evictBytes` of other memory written
/// between calls, each call timed alone (the eviction is not timed); median
/// of `calls` single calls.
__attribute__((noinline)) double timeColdCalls(long calls, int appDepth,
                                              std::size_t evictBytes) {
  static std::vector<char> evict;
  if (evict.size() < evictBytes)
    evict.assign(evictBytes, 0);
  std::vector<double> each;
  each.reserve(calls);
  for (long i = 0; i < calls; ++i) {
    for (std::size_t b = 0; b < evictBytes; b += 64)
      evict[b] = static_cast<char>(i);
    asm volatile("" ::: "memory");
    double t0 = nowNs();
    appFrame(appDepth);
    asm volatile("" ::: "memory");
    each.push_back(nowNs() - t0);
  }
  std::sort(each.begin(), each.end());
  return each[each.size() / 2];
}

} // namespace

int main(int argc, char **argv) {
  long calls = argc > 1 ? std::atol(argv[1]) : 200000;
  int appDepth = argc > 2 ? std::atoi(argv[2]) : 4;
  gProbe = new Probe;
  Probe &p = *gProbe;
  p.unwinder = initStackCapture(Unwinder::Libunwind);
  p.clock.start();
  p.modules.driver = {reinterpret_cast<std::uintptr_t>(__start_fakecuda),
                      reinterpret_cast<std::uintptr_t>(__stop_fakecuda)};
  static char pinnedMemory[1 << 16], pageableMemory[1 << 16];
  gPinnedBuffer = reinterpret_cast<std::uintptr_t>(pinnedMemory) + 128;
  gPageableBuffer = reinterpret_cast<std::uintptr_t>(pageableMemory) + 128;
  p.pinned.add(reinterpret_cast<std::uintptr_t>(pinnedMemory), sizeof pinnedMemory,
               HostRangeKind::Pinned);

  const Kind kinds[] = {
      {"launch", "cudaLaunchKernel", classifyApi("cudaLaunchKernel"), false, false, false, false},
      {"copy-pinned", "cudaMemcpyAsync", classifyApi("cudaMemcpyAsync"), true, false, false, false},
      {"copy-pageable", "cudaMemcpyAsync", classifyApi("cudaMemcpyAsync"), true, true, true, false},
      {"device-sync", "cudaDeviceSynchronize", classifyApi("cudaDeviceSynchronize"), false, false, true, false},
      // cudaMalloc and cudaFree in turn from one site (the bench's own
      // simplification: a real loop frees from another line)
      {"malloc-free", "cudaMalloc", classifyApi("cudaMalloc"), false, false, true, true},
  };
  std::printf("unwinder %s, %ld calls per figure, %d application frames + 2 cudart + %d CUDA "
              "frames, %u kept; ns per call, median of 5\n",
              unwinderName(p.unwinder), calls, appDepth, kCudaFrames, kAppFramesKept);
  gKind = &kinds[0];
  gStages = StageNone;
  double bare = timeCalls(calls, appDepth, 1);
  std::printf("%-38s %8.1f ns (each row: minus this, measured next to it)\n", "frame chain, empty callback", bare);

  struct Row {
    const char *what;
    unsigned stages;
    bool memo;
    Unwinder unwinder;
  } stageRows[] = {
      {"classify (pinned look-up)", StageClassify, false, Unwinder::Libunwind},
      {"+ host clock (2 reads)", StageClassify | StageClock, false, Unwinder::Libunwind},
      {"+ site: no stack (unwinder none)", StageClassify | StageClock | StageSite, false, Unwinder::None},
      {"+ site: libunwind walk + hash + table", StageClassify | StageClock | StageSite, false, Unwinder::Libunwind},
      {"+ site: libgcc walk + hash + table", StageClassify | StageClock | StageSite, false, Unwinder::Libgcc},
      {"+ site: stack memo", StageClassify | StageClock | StageSite, true, Unwinder::Libunwind},
      {"+ handlers, memo (whole path)", StageAll, true, Unwinder::Libunwind},
      {"+ handlers, walk (whole path)", StageAll, false, Unwinder::Libunwind},
  };
  Unwinder loaded = p.unwinder;
  for (const Kind &kind : kinds) {
    gKind = &kind;
    std::printf("-- %s\n", kind.name);
    for (const Row &row : stageRows) {
      if (row.unwinder == Unwinder::Libunwind && loaded != Unwinder::Libunwind)
        continue;
      gStages = row.stages;
      p.useMemo = row.memo;
      p.unwinder = row.unwinder;
      long n = row.unwinder == Unwinder::Libgcc ? calls / 10 : calls;
      double t = timeCalls(n, appDepth, 1);
      gStages = StageNone; // the bare chain again, next to the row: less drift
      double chain = timeCalls(calls, appDepth, 1);
      std::printf("%-38s %8.1f ns\n", row.what, t - chain);
    }
    p.unwinder = loaded;
  }
  // The memo with several live sites in one loop (each its own entry), and
  // the walk for comparison.
  gKind = &kinds[1];
  gStages = StageAll;
  for (bool memo : {true, false}) {
    p.useMemo = memo;
    gStages = StageAll;
    double t = timeCalls(calls, appDepth, 4);
    gStages = StageNone;
    double chain = timeCalls(calls, appDepth, 4);
    std::printf("copy-pinned, 4 sites in turn, %-9s %8.1f ns\n", memo ? "memo" : "walk", t - chain);
  }
  // Cold caches: what the probe's own data costs when the program (and the
  // driver) touched other memory since the last call.
  p.useMemo = true;
  for (std::size_t evictBytes : {std::size_t(1) << 20, std::size_t(64) << 20}) {
    long n = evictBytes > (std::size_t(1) << 20) ? std::max(5L, std::min(300L, calls / 300))
                                                 : std::max(5L, std::min(3000L, calls / 30));
    for (const Kind &kind : kinds) {
      gKind = &kind;
      gStages = StageAll;
      double t = timeColdCalls(n, appDepth, evictBytes);
      gStages = StageNone;
      double chain = timeColdCalls(n, appDepth, evictBytes);
      std::printf("whole path, memo, %2zu MiB evicted: %-13s %8.1f ns (bare chain %.1f ns)\n",
                  evictBytes >> 20, kind.name, t - chain, chain);
    }
  }
  std::printf("memo: %llu hits, %llu misses, %llu calls walked while it stood aside; "
              "%zu sites\n",
              static_cast<unsigned long long>(p.memo.hits),
              static_cast<unsigned long long>(p.memo.misses),
              static_cast<unsigned long long>(p.memo.bypassed), p.table.usedSites());
  return 0;
}
