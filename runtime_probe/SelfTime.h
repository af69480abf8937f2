#pragma once
// The probe's own time per callback, by call kind: what the probe's code
// costs inside CUPTI's callbacks on the real program, apart from CUPTI's
// dispatch (bench/probe/cupti_floor.cpp measures that) and apart from the
// GPU and the run-to-run spread of whole-process timings. Only with
// STREAMLINT_PROBE_SELF_TIME=1, where the probe subscribes a timed
// switchboard instead of the plain one: the plain path pays nothing for it.
// Plain C++: no CUDA.

#include <atomic>
#include <cstdint>
#include <cstdio>

namespace streamlint::probe {

/// What a callback was, for the report (from the call's ApiTrait bits).
enum class SelfTimeKind : std::uint8_t {
  Launch, AsyncCopy, Synchronization, Allocation, StreamOrdered, Other, kCount
};
SelfTimeKind selfTimeKindOf(std::uint16_t traits);
const char *selfTimeKindName(SelfTimeKind kind);

/// Ticks spent in the probe per kind, over every thread.
class SelfTime {
public:
  void add(SelfTimeKind kind, std::uint64_t ticks) {
    auto &b = buckets_[static_cast<unsigned>(kind)];
    b.callbacks.fetch_add(1, std::memory_order_relaxed);
    b.ticks.fetch_add(ticks, std::memory_order_relaxed);
  }
  std::uint64_t callbacks(SelfTimeKind kind) const {
    return buckets_[static_cast<unsigned>(kind)].callbacks.load(std::memory_order_relaxed);
  }
  std::uint64_t ticks(SelfTimeKind kind) const {
    return buckets_[static_cast<unsigned>(kind)].ticks.load(std::memory_order_relaxed);
  }
  /// One line per kind that ran: callbacks and ns per callback (ticks times
  /// `nsPerTick`), `readCostNs` (one pair of clock reads, part of every
  /// figure) named in the header line.
  void report(std::FILE *out, double nsPerTick, double readCostNs) const;

private:
  struct Bucket {
    std::atomic<std::uint64_t> callbacks{0}, ticks{0};
  };
  Bucket buckets_[static_cast<unsigned>(SelfTimeKind::kCount)];
};

} // namespace streamlint::probe
