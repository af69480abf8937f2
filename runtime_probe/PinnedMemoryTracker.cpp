#include "PinnedMemoryTracker.h"

namespace streamlint::probe {
namespace {
constexpr auto kRelaxed = std::memory_order_relaxed;
} // namespace

void PinnedMemoryTracker::lock() const {
  while (writer_.test_and_set(std::memory_order_acquire)) {
  }
}
void PinnedMemoryTracker::unlock() const { writer_.clear(std::memory_order_release); }

void PinnedMemoryTracker::add(std::uintptr_t start, std::size_t bytes,
                              HostRangeKind kind) {
  if (!start || !bytes || kind == HostRangeKind::None)
    return;
  lock();
  std::uint32_t n = count_.load(kRelaxed);
  std::uint32_t at = 0; // first entry whose start is >= start
  while (at < n && starts_[at].load(kRelaxed) < start)
    ++at;
  bool replace = at < n && starts_[at].load(kRelaxed) == start;
  if (!replace && n == kCapacity) {
    overflowed_.fetch_add(1, kRelaxed);
    unlock();
    return;
  }
  sequence_.fetch_add(1, kRelaxed); // odd: readers retry
  std::atomic_thread_fence(std::memory_order_release);
  if (!replace) {
    for (std::uint32_t i = n; i > at; --i) {
      starts_[i].store(starts_[i - 1].load(kRelaxed), kRelaxed);
      ends_[i].store(ends_[i - 1].load(kRelaxed), kRelaxed);
      kinds_[i].store(kinds_[i - 1].load(kRelaxed), kRelaxed);
    }
    count_.store(n + 1, kRelaxed);
  }
  starts_[at].store(start, kRelaxed);
  ends_[at].store(start + bytes, kRelaxed);
  kinds_[at].store(static_cast<std::uint8_t>(kind), kRelaxed);
  sequence_.fetch_add(1, std::memory_order_release);
  unlock();
}

bool PinnedMemoryTracker::remove(std::uintptr_t start) {
  if (!start || !startsRange(start))
    return false; // every cudaFree of device memory: no lock taken
  lock();
  std::uint32_t n = count_.load(kRelaxed);
  std::uint32_t at = 0;
  while (at < n && starts_[at].load(kRelaxed) != start)
    ++at;
  if (at == n) {
    unlock();
    return false;
  }
  sequence_.fetch_add(1, kRelaxed);
  std::atomic_thread_fence(std::memory_order_release);
  for (std::uint32_t i = at; i + 1 < n; ++i) {
    starts_[i].store(starts_[i + 1].load(kRelaxed), kRelaxed);
    ends_[i].store(ends_[i + 1].load(kRelaxed), kRelaxed);
    kinds_[i].store(kinds_[i + 1].load(kRelaxed), kRelaxed);
  }
  count_.store(n - 1, kRelaxed);
  sequence_.fetch_add(1, std::memory_order_release);
  unlock();
  return true;
}

bool PinnedMemoryTracker::startsRange(std::uintptr_t start) const {
  for (;;) {
    std::uint64_t before = generation();
    if (before & 1)
      continue;
    std::uint32_t lo = 0, hi = count_.load(kRelaxed);
    while (lo < hi) { // first entry whose start is >= start
      std::uint32_t mid = (lo + hi) / 2;
      if (starts_[mid].load(kRelaxed) < start)
        lo = mid + 1;
      else
        hi = mid;
    }
    bool found = lo < count_.load(kRelaxed) && starts_[lo].load(kRelaxed) == start;
    std::atomic_thread_fence(std::memory_order_acquire);
    if (sequence_.load(kRelaxed) == before)
      return found;
  }
}

HostRangeKind PinnedMemoryTracker::find(std::uintptr_t address,
                                        ThreadCache &cache) const {
  for (;;) {
    std::uint64_t before = generation();
    if (before & 1)
      continue; // a writer is editing: a few ns, allocation calls only
    if (cache.rangeGeneration == before &&
        address - cache.rangeStart < cache.rangeEnd - cache.rangeStart)
      return cache.rangeKind;
    // Last entry whose start is <= address.
    std::uint32_t lo = 0, hi = count_.load(kRelaxed);
    while (lo < hi) {
      std::uint32_t mid = (lo + hi) / 2;
      if (starts_[mid].load(kRelaxed) <= address)
        lo = mid + 1;
      else
        hi = mid;
    }
    std::uintptr_t start = 0, end = 0;
    HostRangeKind kind = HostRangeKind::None;
    if (lo > 0) {
      start = starts_[lo - 1].load(kRelaxed);
      end = ends_[lo - 1].load(kRelaxed);
      kind = static_cast<HostRangeKind>(kinds_[lo - 1].load(kRelaxed));
    }
    std::atomic_thread_fence(std::memory_order_acquire);
    if (sequence_.load(kRelaxed) != before)
      continue; // torn read: retry
    if (lo == 0 || address >= end)
      return HostRangeKind::None;
    cache.rangeGeneration = before;
    cache.rangeStart = start;
    cache.rangeEnd = end;
    cache.rangeKind = kind;
    return kind;
  }
}

HostMemory PinnedMemoryTracker::classify(std::uintptr_t address, ThreadCache &cache,
                                         DriverQuery query, void *context) const {
  switch (find(address, cache)) {
  case HostRangeKind::Pinned:
    return HostMemory::Pinned;
  case HostRangeKind::Managed:
    return HostMemory::Unknown; // neither pageable nor pinned
  case HostRangeKind::None:
    break;
  }
  // Not the program's pinned memory as far as its calls said: ask the driver
  // once per address (and generation), so that memory pinned where the probe
  // does not look (another process's registration, a VMM mapping) is still
  // classified right.
  std::uint64_t now = generation();
  ThreadCache::Miss &slot = cache.misses[(address >> 4) % kMissSlots];
  if (slot.address == address && slot.generation == now)
    return slot.memory;
  HostMemory memory = query ? query(address, context) : HostMemory::Unknown;
  slot = {address, now, memory};
  return memory;
}

} // namespace streamlint::probe
