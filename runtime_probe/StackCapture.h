#pragma once
// Cheap raw call-stack capture for the probe (raw PCs only; symbolized later)
// and the classification of a thread as the CUDA driver's host-callback
// thread.

#include <cstdint>

namespace streamlint::probe {

/// An address range of one module, [start, end).
struct AddressRange {
  std::uintptr_t start = 0, end = 0;
  bool contains(std::uintptr_t pc) const { return pc >= start && pc < end; }
};

/// The modules the probe tells apart while capturing.
struct CudaModules {
  AddressRange driver; // libcuda.so
  AddressRange cupti;  // libcupti.so
  AddressRange probe;  // libstreamlint_probe.so
  bool isCudaOrProbe(std::uintptr_t pc) const {
    return driver.contains(pc) || cupti.contains(pc) || probe.contains(pc);
  }
};

/// How the stack is walked. libunwind's unw_backtrace caches each return
/// address's frame layout, so repeated walks through the same CUPTI and
/// driver frames cost a few ns a frame; libgcc's _Unwind_Backtrace
/// re-interprets the DWARF CFI of every frame on every call.
enum class Unwinder : unsigned char {
  Libunwind, // default
  Libgcc,    // fallback, and the reference the tests compare against
  None,      // no stack at all: measures the probe without call sites
};

/// Parses STREAMLINT_PROBE_UNWINDER's value ("libunwind", "libgcc", "none");
/// false for anything else.
bool parseUnwinder(const char *name, Unwinder &out);
const char *unwinderName(Unwinder unwinder);

/// Per-process set-up: loads libunwind.so.8 (privately) for Libunwind and
/// turns on its per-thread caches. Returns the unwinder captureStack will
/// actually use: Libgcc where libunwind cannot be loaded.
Unwinder initStackCapture(Unwinder wanted);

/// Captures up to `max` (at most kMaxCapture) return addresses, innermost
/// first and starting with the return address into captureStack's caller, so
/// that every unwinder yields the same frames. Stops once `appFrames` frames
/// outside the CUDA/probe modules were kept (0: no limit). Returns the count.
/// `appOnly` drops the CUDA/probe frames from the result (`max` then counts
/// application frames). `walkDepth`, optional, is the caller's per-thread
/// record of how deep the walks had to go (it only saves work). `skip`
/// frames from the caller on are passed over before anything is kept (a
/// helper's own frame). Libunwind falls back to Libgcc until
/// initStackCapture loaded it.
inline constexpr unsigned kMaxCapture = 256;
unsigned captureStack(std::uintptr_t *pcs, unsigned max, unsigned appFrames,
                      const CudaModules &modules,
                      Unwinder unwinder = Unwinder::Libunwind,
                      bool appOnly = false, unsigned *walkDepth = nullptr,
                      unsigned skip = 0);

/// Whether a complete stack (innermost first) belongs to a thread the driver
/// owns: a driver frame lies below (outside of) the first application frame,
/// as on the thread that runs cudaLaunchHostFunc/cudaStreamAddCallback work.
bool isDriverOwnedStack(const std::uintptr_t *pcs, unsigned count,
                        const CudaModules &modules);

} // namespace streamlint::probe
