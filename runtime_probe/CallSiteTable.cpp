#include "CallSiteTable.h"

namespace streamlint::probe {
namespace {
// Slots probed before a call is dropped: keeps the worst case bounded.
constexpr std::size_t kMaxProbes = 64;

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}
} // namespace

std::uint64_t hashStack(const std::uintptr_t *frames, unsigned count,
                        const void *api) {
  std::uint64_t h = mix(0xcbf29ce484222325ull,
                        reinterpret_cast<std::uintptr_t>(api));
  for (unsigned i = 0; i < count; ++i)
    h = mix(h, frames[i]);
  h ^= h >> 33;
  return h == 0 ? 1 : h;
}

CallSiteTable::CallSiteTable(std::size_t capacity) {
  std::size_t size = 16;
  while (size < capacity)
    size <<= 1;
  slots_.reset(new SiteRecord[size]);
  mask_ = size - 1;
}

SiteRecord *CallSiteTable::acquire(std::uint64_t key, const char *apiName,
                                   std::uint16_t traits,
                                   const std::uintptr_t *frames,
                                   unsigned frameCount) {
  std::size_t index = key & mask_;
  for (std::size_t probe = 0; probe < kMaxProbes && probe <= mask_; ++probe) {
    SiteRecord &slot = slots_[(index + probe) & mask_];
    std::uint64_t seen = slot.key.load(std::memory_order_acquire);
    if (seen == 0 &&
        slot.key.compare_exchange_strong(seen, key,
                                         std::memory_order_acq_rel)) {
      slot.apiName = apiName;
      slot.traits = traits;
      slot.frameCount = frameCount > kMaxFrames ? kMaxFrames : frameCount;
      for (unsigned i = 0; i < slot.frameCount; ++i)
        slot.frames[i] = frames[i];
      slot.ready.store(1, std::memory_order_release);
      used_.fetch_add(1, std::memory_order_relaxed);
      return &slot;
    }
    // `seen` holds the current key whether the CAS failed or was skipped.
    // A record still being published by another thread is usable: its
    // counters are atomics and only the flush reads the metadata.
    if (seen == key)
      return &slot;
  }
  dropped_.fetch_add(1, std::memory_order_relaxed);
  return nullptr;
}

} // namespace streamlint::probe
