#pragma once
// The probe's per-call site look-up without a stack walk per call. A loop
// calls CUDA from the same frames over and over: the first call of a site on
// a thread walks the stack once (libgcc's unwinder, which reports each
// frame's CFA) and remembers, for every frame from captureSite's caller to
// the last one walked, where its return address is stored on the stack and
// what it was. A later call from the same stack position (captureSite's own
// CFA) and API looks at those few words instead of unwinding: if every one
// still holds its return address, the frames are the same (x86-64 keeps a
// frame's return address at its CFA - 8, and a frame's CFA follows from its
// caller's CFA and return address in code without alloca), and so are the
// application frames kept, their hash and the site record. Anything else
// walks again. Where walks keep missing (more live sites than entries, or
// stacks that never repeat) the memo stands aside for a while and the
// per-call walk of StackCapture runs. Plain C++: no CUDA.

#include "CallSiteTable.h"
#include "StackCapture.h"

#include <cstdint>

namespace streamlint::probe {

/// One thread's memo (lives in the probe's thread-local state).
class StackMemo {
public:
  // Sets of entries by (captureSite's CFA, API): calls of one API from
  // several lines of one function share a set and differ in the slots.
  static constexpr unsigned kSets = 8, kWays = 8;
  static constexpr unsigned kMaxSlots = 40; // frames remembered per entry
  // Every kWindow look-ups: more than kMaxMisses misses turn the memo off
  // for kOffCalls calls (each miss walks with libgcc, a few us).
  static constexpr unsigned kWindow = 256, kMaxMisses = 32, kOffCalls = 8192;

  struct Entry {
    std::uintptr_t anchor = 0; // captureSite's CFA; 0: empty
    const void *salt = nullptr; // the API name
    SiteRecord *site = nullptr; // nullptr: the table was full
    std::uint64_t key = 0;
    std::uint16_t slotCount = 0;
    std::uint8_t appCount = 0;
    std::int32_t slotOffset[kMaxSlots] = {};  // return-address slot - anchor
    std::uintptr_t slotValue[kMaxSlots] = {}; // the return address stored there
    std::uint8_t appIndex[kMaxFrames] = {};   // slots that are application frames
  };

  std::uint64_t hits = 0, misses = 0, bypassed = 0; // for tests and benches

  /// The kWays entries that may hold (anchor, salt).
  Entry *setFor(std::uintptr_t anchor, const void *salt) {
    std::uint64_t h = (anchor >> 3) ^ (reinterpret_cast<std::uintptr_t>(salt) * 0x9e3779b97f4a7c15ull);
    return entries_[(h ^ (h >> 29)) % kSets];
  }
  /// The entry of `set` to replace next (round robin).
  Entry &victim(Entry *set) {
    unsigned index = static_cast<unsigned>((set - entries_[0]) / kWays);
    return set[nextVictim_[index]++ % kWays];
  }
  /// False while the memo stands aside (see kWindow).
  bool active() {
    if (offLeft_ == 0)
      return true;
    --offLeft_;
    ++bypassed;
    return false;
  }
  void noteLookup(bool hit);

private:
  Entry entries_[kSets][kWays];
  unsigned char nextVictim_[kSets] = {};
  unsigned windowLookups_ = 0, windowMisses_ = 0, offLeft_ = 0;
};

/// The site record of the current call: its application frames (up to
/// `appFrames`, as captureStack(appOnly) keeps them) hashed with `api` and
/// acquired in `table`, found through `memo` where the stack repeats
/// (`useMemo`; x86-64 only) and by `unwinder`'s walk otherwise (`walkDepth`:
/// see captureStack). nullptr when the table is full (the drop is counted).
SiteRecord *captureSite(StackMemo &memo, bool useMemo, CallSiteTable &table,
                        const char *api, std::uint16_t traits, unsigned appFrames,
                        const CudaModules &modules, Unwinder unwinder,
                        unsigned *walkDepth);

} // namespace streamlint::probe
