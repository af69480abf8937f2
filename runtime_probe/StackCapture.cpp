#include "StackCapture.h"

#include <unwind.h>

namespace streamlint::probe {
namespace {

struct UnwindState {
  std::uintptr_t *pcs;
  unsigned count;
  unsigned max;
  unsigned appFramesLeft;
  const CudaModules *modules;
};

_Unwind_Reason_Code step(struct _Unwind_Context *context, void *arg) {
  auto *state = static_cast<UnwindState *>(arg);
  std::uintptr_t pc = _Unwind_GetIP(context);
  if (pc == 0 || state->count == state->max)
    return _URC_END_OF_STACK;
  state->pcs[state->count++] = pc;
  if (!state->modules->isCudaOrProbe(pc) && --state->appFramesLeft == 0)
    return _URC_END_OF_STACK;
  return _URC_NO_REASON;
}

} // namespace

unsigned captureStack(std::uintptr_t *pcs, unsigned max, unsigned appFrames,
                      const CudaModules &modules) {
  UnwindState state{pcs, 0, max, appFrames == 0 ? ~0u : appFrames, &modules};
  _Unwind_Backtrace(step, &state);
  return state.count;
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
