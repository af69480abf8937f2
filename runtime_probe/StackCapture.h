#pragma once
// Cheap raw call-stack capture for the probe (libgcc's unwinder, raw PCs
// only; symbolized later) and the classification of a thread as the CUDA
// driver's host-callback thread.

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

/// Captures up to `max` return addresses, innermost first, stopping once
/// `appFrames` frames outside the CUDA/probe modules were seen (the call
/// site is among the first of them). Returns the number captured.
unsigned captureStack(std::uintptr_t *pcs, unsigned max, unsigned appFrames,
                      const CudaModules &modules);

/// Whether a complete stack (innermost first) belongs to a thread the driver
/// owns: a driver frame lies below (outside of) the first application frame,
/// as on the thread that runs cudaLaunchHostFunc/cudaStreamAddCallback work.
bool isDriverOwnedStack(const std::uintptr_t *pcs, unsigned count,
                        const CudaModules &modules);

} // namespace streamlint::probe
