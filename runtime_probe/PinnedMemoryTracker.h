#pragma once
// Which host memory is pinned, learned from the program's own intercepted
// allocations and registrations (cudaMallocHost, cudaHostAlloc,
// cudaHostRegister, their driver twins, cudaMallocManaged) instead of a
// driver query per async copy. Writers (allocation calls, a few per program
// phase) take a spin lock; readers (every async copy) are lock-free: a
// per-thread cache of the last range hit and of recent misses, then a
// seqlock-guarded binary search of a fixed, sorted array. Plain C++: no CUDA.

#include "ProbeHandlers.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace streamlint::probe {

/// What a host range is, as far as the program's own calls tell.
enum class HostRangeKind : std::uint8_t { None, Pinned, Managed };

/// Pinned and managed host ranges the program allocated or registered.
class PinnedMemoryTracker {
public:
  static constexpr std::size_t kCapacity = 4096;
  static constexpr std::size_t kMissSlots = 64;

  /// One thread's memory of recent answers; valid while the tracker's
  /// generation (bumped by every add/remove) is unchanged.
  struct ThreadCache {
    std::uint64_t rangeGeneration = ~0ull;
    std::uintptr_t rangeStart = 0, rangeEnd = 0;
    HostRangeKind rangeKind = HostRangeKind::None;
    struct Miss {
      std::uintptr_t address = 0;
      std::uint64_t generation = ~0ull;
      HostMemory memory = HostMemory::Unknown;
    } misses[kMissSlots];
  };
  /// The slow path for an address in no known range (memory pinned in a way
  /// the probe did not see): the driver's answer, cached per thread.
  using DriverQuery = HostMemory (*)(std::uintptr_t address, void *context);

  void add(std::uintptr_t start, std::size_t bytes, HostRangeKind kind);
  /// Forgets the range that starts at `start` (cudaFreeHost,
  /// cudaHostUnregister, cudaFree of managed memory); false if none did.
  /// An address that starts no range (every cudaFree of device memory) is
  /// told by a lock-free search, without the writers' lock.
  bool remove(std::uintptr_t start);
  /// Whether a known range starts at `start` (lock-free, like find).
  bool startsRange(std::uintptr_t start) const;

  /// The range kind holding `address`, without the driver.
  HostRangeKind find(std::uintptr_t address, ThreadCache &cache) const;
  /// The host-memory kind of `address`: known ranges first, then recent
  /// answers of `query` for this address, then `query` itself.
  HostMemory classify(std::uintptr_t address, ThreadCache &cache,
                      DriverQuery query, void *context) const;

  std::size_t size() const { return count_.load(std::memory_order_relaxed); }
  /// Ranges not kept because the table was full (their copies fall back to
  /// the driver query, so they are still classified right).
  std::uint64_t overflowed() const { return overflowed_.load(std::memory_order_relaxed); }

private:
  void lock() const;
  void unlock() const;
  std::uint64_t generation() const { return sequence_.load(std::memory_order_acquire); }

  mutable std::atomic_flag writer_ = ATOMIC_FLAG_INIT;
  std::atomic<std::uint64_t> sequence_{0}; // odd while a writer edits
  std::atomic<std::uint32_t> count_{0};
  std::atomic<std::uint64_t> overflowed_{0};
  std::atomic<std::uintptr_t> starts_[kCapacity] = {};
  std::atomic<std::uintptr_t> ends_[kCapacity] = {};
  std::atomic<std::uint8_t> kinds_[kCapacity] = {};
};

} // namespace streamlint::probe
