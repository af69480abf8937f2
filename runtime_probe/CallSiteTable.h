#pragma once
// Per-call-site aggregation for the probe: a fixed-size, lock-free,
// open-addressing table keyed by a hash of the raw host call stack. Memory is
// bounded by the capacity chosen at startup; calls from sites that find no
// free slot are counted as dropped, never allocated for.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "SiteCounters.h"

namespace streamlint::probe {

using streamlint::Counter;
using streamlint::kCounterCount;

inline constexpr unsigned kMaxFrames = 32;

/// Everything the probe aggregates about one (call stack, API) pair. The
/// counters (SiteCounters.h) come first: the eight every call adds to fill
/// the first cache line; what is written once (key, metadata, frames) and
/// the rare counters follow.
struct alignas(64) SiteRecord {
  std::atomic<std::uint64_t> counters[kCounterCount] = {};

  std::atomic<std::uint64_t> key{0}; // 0: slot free
  std::atomic<std::uint32_t> ready{0}; // metadata below is written
  std::uint16_t traits = 0;           // ApiTrait bits
  const char *apiName = nullptr;      // CUPTI's constant string
  std::atomic<std::uint64_t> ownFreed{0}; // frees of memory this site returned
  std::atomic<std::int32_t> lastCallbackThreadError{0};
  std::uint32_t frameCount = 0;
  std::uintptr_t frames[kMaxFrames] = {};

  std::atomic<std::uint64_t> &operator[](Counter c) {
    return counters[static_cast<std::size_t>(c)];
  }
  const std::atomic<std::uint64_t> &operator[](Counter c) const {
    return counters[static_cast<std::size_t>(c)];
  }
  void add(Counter c, std::uint64_t n) { (*this)[c].fetch_add(n, std::memory_order_relaxed); }
  std::uint64_t count(Counter c) const { return (*this)[c].load(std::memory_order_relaxed); }
};
static_assert(offsetof(SiteRecord, counters) == 0 && kHotCounters * sizeof(std::uint64_t) == 64,
              "the per-call counters fill one cache line");

/// Hash of a raw stack and the API name pointer; never 0.
std::uint64_t hashStack(const std::uintptr_t *frames, unsigned count,
                        const void *api);

/// Lock-free table of SiteRecords (see file comment).
class CallSiteTable {
public:
  /// `capacity` is rounded up to a power of two.
  explicit CallSiteTable(std::size_t capacity);

  /// The record for `key`, creating it from the other arguments on first use;
  /// nullptr (and one dropped call counted) when the table is full.
  SiteRecord *acquire(std::uint64_t key, const char *apiName,
                      std::uint16_t traits, const std::uintptr_t *frames,
                      unsigned frameCount);

  std::size_t capacity() const { return mask_ + 1; }
  std::uint64_t droppedCalls() const { return dropped_.load(); }
  std::size_t usedSites() const { return used_.load(); }

  /// Visits every published record (safe while other threads record).
  template <typename Visitor> void forEach(Visitor &&visit) const {
    for (std::size_t i = 0; i <= mask_; ++i)
      if (slots_[i].ready.load(std::memory_order_acquire))
        visit(slots_[i]);
  }
  template <typename Visitor> void forEach(Visitor &&visit) {
    for (std::size_t i = 0; i <= mask_; ++i)
      if (slots_[i].ready.load(std::memory_order_acquire))
        visit(slots_[i]);
  }

private:
  std::unique_ptr<SiteRecord[]> slots_;
  std::size_t mask_;
  std::atomic<std::uint64_t> dropped_{0};
  std::atomic<std::size_t> used_{0};
};

} // namespace streamlint::probe
