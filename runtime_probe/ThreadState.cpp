#include "ThreadState.h"

#include <new>
#include <pthread.h>
#include <sys/mman.h>

namespace streamlint::probe {

#if STREAMLINT_PROBE_STATIC_TLS
__attribute__((tls_model("initial-exec")))
#endif
thread_local ThreadState *tThreadState = nullptr;

namespace {
pthread_key_t gThreadStateKey;

void releaseThreadState(void *memory) {
  auto *state = static_cast<ThreadState *>(memory);
  state->~ThreadState();
  munmap(state, sizeof(ThreadState));
  tThreadState = nullptr; // a later callback on this exiting thread starts anew
}
} // namespace

bool startThreadStates() {
  return pthread_key_create(&gThreadStateKey, releaseThreadState) == 0;
}

// Mapped, not allocated with operator new or malloc: a program may replace
// those with versions that call CUDA (a global operator new on
// cudaMallocManaged), whose callback would come back here before the state
// existed. The pointer is set before pthread_setspecific, which may itself
// allocate.
__attribute__((noinline, cold)) ThreadState *newThreadState() {
  void *memory = mmap(nullptr, sizeof(ThreadState), PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED)
    return nullptr;
  auto *state = tThreadState = new (memory) ThreadState;
  pthread_setspecific(gThreadStateKey, state);
  return state;
}

} // namespace streamlint::probe
