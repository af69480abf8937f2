#include "StackCapture.h"

// libunwind (the nongnu one, UNW_LOCAL_ONLY: unwinds this process only),
// for its types and symbol names: the library itself is dlopen'ed with
// RTLD_LOCAL, since it also defines _Unwind_* functions that must not
// replace libgcc's for the application. Its package also installs an
// unwind.h that shadows GCC's; libgcc's two functions are declared by hand.
#if STREAMLINT_HAVE_LIBUNWIND
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#endif

#include <cstring>
#include <dlfcn.h>

extern "C" {
struct _Unwind_Context;
typedef int (*StreamlintUnwindTrace)(struct _Unwind_Context *, void *);
int _Unwind_Backtrace(StreamlintUnwindTrace, void *);
unsigned long _Unwind_GetIP(struct _Unwind_Context *);
}

namespace streamlint::probe {
namespace {

#define STREAMLINT_STR2(x) #x
#define STREAMLINT_STR(x) STREAMLINT_STR2(x)

using UnwBacktraceFn = int (*)(void **, int);
UnwBacktraceFn gUnwBacktrace = nullptr; // set once libunwind is loaded

#if !STREAMLINT_HAVE_LIBUNWIND
bool loadLibunwind() { return false; } // built without libunwind.h
#else
using UnwSetCachingPolicyFn = int (*)(unw_addr_space_t, unw_caching_policy_t);

bool loadLibunwind() {
  if (gUnwBacktrace)
    return true;
  void *lib = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return false;
  auto backtrace = reinterpret_cast<UnwBacktraceFn>(dlsym(lib, "unw_backtrace"));
  auto setPolicy = reinterpret_cast<UnwSetCachingPolicyFn>(
      dlsym(lib, STREAMLINT_STR(unw_set_caching_policy)));
  auto *space = static_cast<unw_addr_space_t *>(
      dlsym(lib, STREAMLINT_STR(unw_local_addr_space)));
  if (!backtrace || !setPolicy || !space) {
    dlclose(lib);
    return false;
  }
  // Per-thread caches: no lock on the unwind path, which runs on every
  // thread that calls CUDA.
  setPolicy(*space, UNW_CACHE_PER_THREAD);
  gUnwBacktrace = backtrace;
  return true;
}
#endif

constexpr int kUrcNoReason = 0, kUrcEndOfStack = 5; // _Unwind_Reason_Code
// Frames of the unwinder itself above captureStack's caller.
constexpr unsigned kOwnFramesSlack = 8;

struct LibgccState {
  std::uintptr_t *pcs;
  unsigned count, max, appLeft;
  std::uintptr_t caller; // frames before it are the unwinder's own
  unsigned skipLeft;
  unsigned passLeft; // frames from the caller on not kept
  const CudaModules *modules;
  bool appOnly;
};

int libgccStep(struct _Unwind_Context *context, void *arg) {
  auto *state = static_cast<LibgccState *>(arg);
  std::uintptr_t pc = _Unwind_GetIP(context);
  if (pc == 0 || state->count == state->max)
    return kUrcEndOfStack;
  if (state->caller) {
    if (pc != state->caller && state->skipLeft-- > 0)
      return kUrcNoReason;
    state->caller = 0;
  }
  if (state->passLeft > 0) {
    --state->passLeft;
    return kUrcNoReason;
  }
  bool app = !state->modules->isCudaOrProbe(pc);
  if (app || !state->appOnly)
    state->pcs[state->count++] = pc;
  if (app && --state->appLeft == 0)
    return kUrcEndOfStack;
  return kUrcNoReason;
}

} // namespace

bool parseUnwinder(const char *name, Unwinder &out) {
  static const struct {
    const char *name;
    Unwinder value;
  } kNames[] = {{"libunwind", Unwinder::Libunwind},
                {"libgcc", Unwinder::Libgcc},
                {"none", Unwinder::None}};
  for (const auto &entry : kNames)
    if (name && std::strcmp(name, entry.name) == 0) {
      out = entry.value;
      return true;
    }
  return false;
}

const char *unwinderName(Unwinder unwinder) {
  switch (unwinder) {
  case Unwinder::Libunwind:
    return "libunwind";
  case Unwinder::Libgcc:
    return "libgcc";
  case Unwinder::None:
    return "none";
  }
  return "?";
}

Unwinder initStackCapture(Unwinder wanted) {
  if (wanted == Unwinder::Libunwind && !loadLibunwind())
    return Unwinder::Libgcc;
  return wanted;
}

__attribute__((noinline)) unsigned
captureStack(std::uintptr_t *pcs, unsigned max, unsigned appFrames,
             const CudaModules &modules, Unwinder unwinder, bool appOnly,
             unsigned *walkDepth, unsigned skip) {
  if (unwinder == Unwinder::None || max == 0)
    return 0;
  if (max > kMaxCapture)
    max = kMaxCapture;
  // Results start at our caller: both unwinders then agree frame by frame.
  auto caller = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  if (unwinder == Unwinder::Libgcc || !gUnwBacktrace) {
    LibgccState state{pcs, 0, max, appFrames == 0 ? ~0u : appFrames,
                      caller, kOwnFramesSlack, skip, &modules, appOnly};
    _Unwind_Backtrace(libgccStep, &state);
    return state.count;
  }
  // unw_backtrace cannot stop early: walk into a scratch buffer with room
  // for its own frames (and, with appOnly, CUDA's), then copy from our
  // caller on. A thread's calls come through CUDA frames of about the same
  // depth: walk as deep as its deepest call so far needed (plus a margin),
  // and again in full only when that fell short.
  constexpr unsigned kBuffer = kMaxCapture + kOwnFramesSlack, kMargin = 4;
  std::uintptr_t raw[kBuffer];
  unsigned full = appOnly ? kBuffer : max + kOwnFramesSlack;
  unsigned want = full;
  if (appFrames && walkDepth && *walkDepth && *walkDepth + kMargin < full)
    want = *walkDepth + kMargin;
  for (;;) {
    int got = gUnwBacktrace(reinterpret_cast<void **>(raw), static_cast<int>(want));
    unsigned n = got > 0 ? static_cast<unsigned>(got) : 0;
    unsigned first = 0;
    while (first < n && first < kOwnFramesSlack && raw[first] != caller)
      ++first;
    if (first == n || raw[first] != caller)
      first = 0; // not found (should not happen): keep everything
    unsigned count = 0, appLeft = appFrames == 0 ? ~0u : appFrames, i = first + skip;
    for (; i < n && count < max; ++i) {
      bool app = !modules.isCudaOrProbe(raw[i]);
      if (app || !appOnly)
        pcs[count++] = raw[i];
      if (app && --appLeft == 0) {
        ++i;
        break;
      }
    }
    bool complete = appLeft == 0 || count == max || n < want;
    if (complete || want == full) {
      if (walkDepth && appFrames && i > *walkDepth)
        *walkDepth = i;
      return count;
    }
    want = full;
  }
}

bool isDriverOwnedStack(const std::uintptr_t *pcs, unsigned count,
                        const CudaModules &modules) {
  bool sawApp = false;
  for (unsigned i = 0; i < count; ++i) {
    if (!modules.isCudaOrProbe(pcs[i]))
      sawApp = true;
    else if (sawApp && modules.driver.contains(pcs[i]))
      return true;
  }
  return false;
}

} // namespace streamlint::probe
