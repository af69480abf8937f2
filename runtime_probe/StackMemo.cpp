#include "StackMemo.h"

extern "C" {
struct _Unwind_Context;
typedef int (*StreamlintMemoTrace)(struct _Unwind_Context *, void *);
int _Unwind_Backtrace(StreamlintMemoTrace, void *);
unsigned long _Unwind_GetIP(struct _Unwind_Context *);
unsigned long _Unwind_GetCFA(struct _Unwind_Context *);
}

namespace streamlint::probe {
namespace {

constexpr int kUrcNoReason = 0, kUrcEndOfStack = 5; // _Unwind_Reason_Code
constexpr unsigned kOwnFramesSlack = 8; // libgcc's frames above captureSite

/// One walk for a memo entry: each frame's return address and CFA, from
/// captureSite's caller on.
struct MemoWalk {
  std::uintptr_t anchor; // captureSite's CFA
  bool started = false;
  unsigned skipped = 0;
  unsigned count = 0, appLeft;
  bool overflow = false; // more frames than an entry holds
  const CudaModules *modules;
  std::uintptr_t pc[StackMemo::kMaxSlots];
  std::uintptr_t calleeCfa[StackMemo::kMaxSlots]; // pc[i] is at calleeCfa[i] - 8
};

int memoStep(struct _Unwind_Context *context, void *arg) {
  auto *walk = static_cast<MemoWalk *>(arg);
  std::uintptr_t pc = _Unwind_GetIP(context), cfa = _Unwind_GetCFA(context);
  // libgcc's context of a frame holds the CFA of the frame it called (its
  // stack pointer at the call): the first frame kept is the one whose callee
  // is captureSite; libgcc's own frames and captureSite's come before it.
  if (!walk->started && !(walk->started = cfa == walk->anchor))
    return ++walk->skipped > kOwnFramesSlack ? kUrcEndOfStack : kUrcNoReason;
  if (pc == 0)
    return kUrcEndOfStack;
  if (walk->count == StackMemo::kMaxSlots) {
    walk->overflow = true;
    return kUrcEndOfStack;
  }
  walk->pc[walk->count] = pc;
  walk->calleeCfa[walk->count++] = cfa;
  if (!walk->modules->isCudaOrProbe(pc) && --walk->appLeft == 0)
    return kUrcEndOfStack;
  return kUrcNoReason;
}

// Reads return-address slots of live frames above captureSite: outside any
// object an address sanitizer knows.
__attribute__((no_sanitize("address"))) std::uintptr_t
stackWord(std::uintptr_t address) {
  return *reinterpret_cast<const volatile std::uintptr_t *>(address);
}

__attribute__((no_sanitize("address"))) bool
stillHolds(const StackMemo::Entry &e, std::uintptr_t anchor) {
  for (unsigned i = 0; i < e.slotCount; ++i)
    if (*reinterpret_cast<const std::uintptr_t *>(anchor + std::intptr_t(e.slotOffset[i])) !=
        e.slotValue[i])
      return false;
  return true;
}

/// Fills `e` from a walk; false when the walk cannot be checked that way
/// (a frame's return address is not at its callee's CFA - 8: a signal
/// frame, or another ABI) or does not fit.
bool fillEntry(StackMemo::Entry &e, const MemoWalk &walk, unsigned appFrames) {
  if (!walk.started || walk.overflow)
    return false;
  std::uintptr_t below = walk.anchor; // each caller's slot lies above its callee's
  unsigned apps = 0;
  for (unsigned i = 0; i < walk.count; ++i) {
    std::uintptr_t cfa = walk.calleeCfa[i], slot = cfa - sizeof(std::uintptr_t);
    if (cfa < below || cfa - walk.anchor > (1u << 30) || stackWord(slot) != walk.pc[i])
      return false;
    e.slotOffset[i] = static_cast<std::int32_t>(slot - walk.anchor);
    e.slotValue[i] = walk.pc[i];
    if (!walk.modules->isCudaOrProbe(walk.pc[i]) && apps < appFrames && apps < kMaxFrames)
      e.appIndex[apps++] = static_cast<std::uint8_t>(i);
    below = cfa + sizeof(std::uintptr_t);
  }
  e.slotCount = static_cast<std::uint16_t>(walk.count);
  e.appCount = static_cast<std::uint8_t>(apps);
  return true;
}

} // namespace

void StackMemo::noteLookup(bool hit) {
  ++(hit ? hits : misses);
  windowMisses_ += !hit;
  if (++windowLookups_ < kWindow)
    return;
  if (windowMisses_ > kMaxMisses)
    offLeft_ = kOffCalls;
  windowLookups_ = windowMisses_ = 0;
}

__attribute__((noinline)) SiteRecord *
captureSite(StackMemo &memo, bool useMemo, CallSiteTable &table, const char *api,
            std::uint16_t traits, unsigned appFrames, const CudaModules &modules,
            Unwinder unwinder, unsigned *walkDepth) {
#if defined(__x86_64__)
  bool memoize = useMemo && unwinder != Unwinder::None && appFrames > 0 && memo.active();
#else
  bool memoize = false; // the return-address slot rule is x86-64's
#endif
  std::uintptr_t pcs[kMaxFrames];
  if (memoize) {
    auto anchor = reinterpret_cast<std::uintptr_t>(__builtin_dwarf_cfa());
    StackMemo::Entry *set = memo.setFor(anchor, api), *found = nullptr;
    for (unsigned w = 0; w < StackMemo::kWays && !found; ++w)
      if (set[w].anchor == anchor && set[w].salt == api && stillHolds(set[w], anchor))
        found = &set[w];
    memo.noteLookup(found != nullptr);
    if (found && found->site)
      return found->site;
    if (found) { // the table was full when the entry was made: count the drop
      for (unsigned i = 0; i < found->appCount; ++i)
        pcs[i] = found->slotValue[found->appIndex[i]];
      return table.acquire(found->key, api, traits, pcs, found->appCount);
    }
    MemoWalk walk{};
    walk.anchor = anchor;
    walk.appLeft = appFrames;
    walk.modules = &modules;
    _Unwind_Backtrace(memoStep, &walk);
    StackMemo::Entry &e = memo.victim(set);
    e.anchor = 0;
    if (fillEntry(e, walk, appFrames)) {
      for (unsigned i = 0; i < e.appCount; ++i)
        pcs[i] = e.slotValue[e.appIndex[i]];
      e.key = hashStack(pcs, e.appCount, api);
      e.site = table.acquire(e.key, api, traits, pcs, e.appCount);
      e.salt = api;
      e.anchor = anchor;
      return e.site;
    }
    // Not checkable that way (see fillEntry): this call walks as before.
  }
  // captureStack's frames from captureSite's caller on, like the memo's.
  unsigned n = captureStack(pcs, kMaxFrames, appFrames, modules, unwinder,
                            /*appOnly=*/true, walkDepth, /*skip=*/1);
  return table.acquire(hashStack(pcs, n, api), api, traits, pcs, n);
}

} // namespace streamlint::probe
