// Functions whose every caller is in main.cu.
#include <cuda_runtime.h>

__global__ void init(float *d) { d[threadIdx.x] = 1.0f; }
__global__ void fill(float *d, float v) { d[threadIdx.x] += v; }

// main calls it with nothing pending and copies on the legacy stream after
// it; s is created blocking there: moving fill to s keeps every edge.
void runStep(float *d, cudaStream_t s) {
  init<<<1, 64, 0, s>>>(d);
  fill<<<1, 64>>>(d, 2.0f); // applied
}

// main's kernel on 'side' is still running when it calls this: on the
// legacy stream fill waited for it, on s it would not.
void runAfterOther(float *d, cudaStream_t s) {
  init<<<1, 64, 0, s>>>(d);
  fill<<<1, 64>>>(d, 2.0f); // not applied: follows the kernel launch
}

// Called through a pointer: its callers are not known.
void runThroughPointer(float *d, cudaStream_t s) {
  init<<<1, 64, 0, s>>>(d);
  fill<<<1, 64>>>(d, 2.0f); // not applied: its address is taken
}

struct Worker {
  virtual void work(float *d, cudaStream_t s);
};
// Virtual: an override's caller anywhere may call it.
void Worker::work(float *d, cudaStream_t s) {
  init<<<1, 64, 0, s>>>(d);
  fill<<<1, 64>>>(d, 2.0f); // not applied: it is virtual
}

// cdpAdvancedQuicksort's run_quicksort_cdp: its one caller passes NULL, so
// the stream parameter is the legacy stream and moving the work to it
// would change nothing (the probe saw the "fixed" launches still there).
void runOnZero(float *d, cudaStream_t s) {
  init<<<1, 64, 0, s>>>(d);
  fill<<<1, 64>>>(d, 2.0f); // not applied: passes the legacy stream (0)
}

// C linkage is no reason by itself: main calls it with nothing pending
// and synchronizes after it (a C caller would be in the program too).
// An explicit export and no call at all: code outside the program may call
// them (or, never called here, only such code does).
extern "C" void runFromC(float *d, cudaStream_t s) {
  init<<<1, 64, 0, s>>>(d);
  fill<<<1, 64>>>(d, 2.0f); // applied
}
__attribute__((visibility("default"))) void runExported(float *d, cudaStream_t s) {
  init<<<1, 64, 0, s>>>(d);
  fill<<<1, 64>>>(d, 2.0f); // not applied: it is exported
}
void runNeverCalled(float *d, cudaStream_t s) {
  init<<<1, 64, 0, s>>>(d);
  fill<<<1, 64>>>(d, 2.0f); // not applied: no call of it is in the analyzed program
}
