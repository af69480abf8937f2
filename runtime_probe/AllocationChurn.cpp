#include "AllocationChurn.h"

namespace streamlint::probe {
namespace {
constexpr auto kRelaxed = std::memory_order_relaxed;
// Bounded linear probing: the worst case stays a few cache lines.
constexpr std::size_t kMaxProbes = 64;

std::size_t slotOf(std::uintptr_t address) {
  std::uint64_t h = address * 0x9e3779b97f4a7c15ull;
  return static_cast<std::size_t>(h >> 20);
}

/// Scoped spin lock on an atomic_flag.
class SpinGuard {
public:
  explicit SpinGuard(std::atomic_flag &flag) : flag_(flag) {
    while (flag_.test_and_set(std::memory_order_acquire)) {
    }
  }
  ~SpinGuard() { flag_.clear(std::memory_order_release); }

private:
  std::atomic_flag &flag_;
};
} // namespace

AllocationChurn::AllocationChurn(std::size_t capacity) {
  std::size_t size = 16;
  while (size < capacity)
    size <<= 1;
  slots_.reset(new Live[size]);
  freed_.reset(new Freed[size]);
  mask_ = size - 1;
}

AllocationChurn::Freed *AllocationChurn::freedEntry(SiteRecord *site, std::uint32_t thread,
                                                    bool create) {
  std::size_t index =
      slotOf(reinterpret_cast<std::uintptr_t>(site) ^ (std::uint64_t(thread) << 40));
  for (std::size_t probe = 0; probe < kMaxProbes && probe <= mask_; ++probe) {
    Freed &slot = freed_[(index + probe) & mask_];
    if (slot.site == site && slot.thread == thread)
      return &slot;
    if (!slot.site) {
      if (!create)
        return nullptr;
      slot.site = site;
      slot.thread = thread;
      return &slot;
    }
  }
  return nullptr;
}

AllocationChurn::Live *AllocationChurn::lookup(std::uintptr_t address) {
  std::size_t index = slotOf(address);
  for (std::size_t probe = 0; probe < kMaxProbes && probe <= mask_; ++probe) {
    Live &slot = slots_[(index + probe) & mask_];
    if (slot.address == address)
      return &slot;
    if (slot.address == 0)
      return nullptr;
  }
  return nullptr;
}

// Backward-shift deletion: no tombstones, so a churning loop that gets a new
// address every time never fills the table.
void AllocationChurn::erase(Live *slot) {
  std::size_t hole = static_cast<std::size_t>(slot - slots_.get());
  std::size_t next = hole;
  for (;;) {
    next = (next + 1) & mask_;
    Live &candidate = slots_[next];
    if (candidate.address == 0)
      break;
    std::size_t home = slotOf(candidate.address) & mask_;
    // Move it back if its home is not cyclically within (hole, next].
    bool between = hole <= next ? (home > hole && home <= next)
                                : (home > hole || home <= next);
    if (!between) {
      slots_[hole] = candidate;
      hole = next;
    }
  }
  slots_[hole] = Live{};
}

bool AllocationChurn::allocated(SiteRecord &site, std::uintptr_t address,
                                std::uint32_t thread) {
  if (!address)
    return false;
  SpinGuard guard(lock_);
  Freed *freed = freedEntry(&site, thread, /*create=*/true);
  bool churn = freed && freed->count > freed->countAtLastAllocation;
  if (freed)
    freed->countAtLastAllocation = freed->count;
  if (churn)
    site.add(Counter::Churn, 1);
  if (Live *existing = lookup(address)) { // freed where the probe did not look
    *existing = Live{address, &site, thread, churn};
    return churn;
  }
  std::size_t index = slotOf(address);
  for (std::size_t probe = 0; probe < kMaxProbes && probe <= mask_; ++probe) {
    Live &slot = slots_[(index + probe) & mask_];
    if (slot.address == 0) {
      slot = Live{address, &site, thread, churn};
      return churn;
    }
  }
  untracked_.fetch_add(1, kRelaxed);
  return churn;
}

bool AllocationChurn::freed(SiteRecord &site, std::uintptr_t address) {
  if (!address)
    return false;
  SiteRecord *origin = nullptr;
  bool churned = false;
  {
    SpinGuard guard(lock_);
    Live *slot = lookup(address);
    if (!slot)
      return false;
    origin = slot->origin;
    churned = slot->churned;
    std::uint32_t thread = slot->thread;
    erase(slot);
    if (Freed *f = freedEntry(origin, thread, /*create=*/true))
      ++f->count;
    else
      untracked_.fetch_add(1, kRelaxed);
  }
  origin->ownFreed.fetch_add(1, kRelaxed);
  if (churned)
    site.add(Counter::Churn, 1);
  return churned;
}

} // namespace streamlint::probe
