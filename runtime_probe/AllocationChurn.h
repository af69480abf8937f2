#pragma once
// alloc-in-loop at run time: allocation churn, not repetition. An
// allocation is churn when its site, on the same thread, allocates again
// after memory it returned there was freed since its previous allocation (the
// per-iteration malloc/free pair, at any depth of caller: every allocation
// after the first; a set-up phase of N buffers that runs K times: one per
// round after the first); the free of churned memory is churn too. A
// set-up loop that allocates N buffers once and frees them at the end is
// not: none of its allocations follows a free of the site's memory. Nor are
// worker threads that each allocate once (cuda-samples' simpleCallback: one
// thread per workload, another frees its buffer when the workload is done).
//
// Live allocations are kept in a fixed open-addressing table keyed by the
// returned address, under a spin lock: allocation calls only (the driver
// takes its own locks there, and they cost microseconds), never a launch or
// a copy. A full table leaves allocations untracked (counted), never
// allocates.

#include "CallSiteTable.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace streamlint::probe {

/// Tells allocation churn from set-up loops (see file comment).
class AllocationChurn {
public:
  /// `capacity` live allocations, rounded up to a power of two.
  explicit AllocationChurn(std::size_t capacity);

  /// `site` returned `address` on `thread` (any id unique per thread);
  /// counts and returns whether it is churn.
  bool allocated(SiteRecord &site, std::uintptr_t address, std::uint32_t thread = 0);
  /// `site` released `address`; counts and returns whether that memory was
  /// churned. Addresses the probe never saw allocated are ignored.
  bool freed(SiteRecord &site, std::uintptr_t address);

  /// Allocations not tracked because the table was full.
  std::uint64_t untracked() const { return untracked_.load(std::memory_order_relaxed); }

private:
  struct Live {
    std::uintptr_t address = 0; // 0: free slot
    SiteRecord *origin = nullptr;
    std::uint32_t thread = 0;
    bool churned = false;
  };
  /// How often memory a site returned on one thread was freed, and how
  /// often it had been when the site last allocated there.
  struct Freed {
    SiteRecord *site = nullptr; // nullptr: free slot
    std::uint32_t thread = 0;
    std::uint64_t count = 0;
    std::uint64_t countAtLastAllocation = 0;
  };
  Live *lookup(std::uintptr_t address);
  void erase(Live *slot);
  Freed *freedEntry(SiteRecord *site, std::uint32_t thread, bool create);

  std::unique_ptr<Live[]> slots_;
  std::unique_ptr<Freed[]> freed_;
  std::size_t mask_;
  std::atomic_flag lock_ = ATOMIC_FLAG_INIT;
  std::atomic<std::uint64_t> untracked_{0};
};

} // namespace streamlint::probe
