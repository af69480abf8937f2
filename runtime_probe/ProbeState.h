#pragma once
// The probe library's process-wide state, shared by its two halves: the
// callback path (Switchboard.cpp: one CUPTI callback turning API calls into
// ApiCall records for the handlers) and the lifecycle (CuptiProbe.cpp:
// InitializeInjection, the subscription, the flush at exit or on a fatal
// signal). Part of libstreamlint_probe.so only.

#include "AllocationChurn.h"
#include "CallSiteTable.h"
#include "HostClock.h"
#include "ModuleMap.h"
#include "PinnedMemoryTracker.h"
#include "SelfTime.h"
#include "StackCapture.h"

#include <cupti.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace streamlint::probe {

constexpr std::size_t kSiteCapacity = 8192;
// Enough to pass cudart, the kernel stubs and Thrust/CUB's template layers
// (thrust::sort at -O0 is more than 10 frames deep; an H100 run with 10
// lost the call site of a third of its library calls), and a prebuilt
// library's own frames to the program's call into it (PyTorch's allocator
// under an ATen op is about 15 frames deep). Shallow programs stop at the
// end of their stack, so they pay nothing for it.
constexpr unsigned kAppFramesKept = 32;
constexpr unsigned kMaxCallbackIds = 1024;
constexpr std::size_t kLiveAllocations = 1 << 15;

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
extern ProbeState *gProbe;

/// The CUPTI callback (CallbackFunc) the probe subscribes: the plain one,
/// or with STREAMLINT_PROBE_SELF_TIME=1 the one that times itself.
void CUPTIAPI switchboard(void *, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                          const void *data);
void CUPTIAPI timedSwitchboard(void *, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                               const void *data);

} // namespace streamlint::probe
