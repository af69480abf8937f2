#pragma once
// The probe's clock for host time. Reads the time-stamp counter where it is
// invariant (a few ns; clock_gettime falls back to a system call on hosts
// whose clock source has no vDSO path, and two reads a timed call add up):
// sites sum ticks, and the flush converts the sums with one calibration
// against CLOCK_MONOTONIC over the whole run. Elsewhere it reads
// CLOCK_MONOTONIC in nanoseconds.

#include <cstdint>
#include <ctime>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace streamlint::probe {

/// Host-time clock with TSC ticks where possible (see file comment).
class HostClock {
public:
  /// Decides TSC or CLOCK_MONOTONIC and takes the first calibration point.
  void start();
  std::uint64_t now() const {
#if defined(__x86_64__)
    if (useTsc_)
      return __rdtsc();
#endif
    return monotonicNs();
  }
  /// Nanoseconds per unit of now(), over the run so far.
  double nanosecondsPerTick() const;
  bool usesTsc() const { return useTsc_; }

  static std::uint64_t monotonicNs() {
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return std::uint64_t(ts.tv_sec) * 1000000000ull + ts.tv_nsec;
  }

private:
  bool useTsc_ = false;
  std::uint64_t startTicks_ = 0, startNs_ = 0;
};

} // namespace streamlint::probe
