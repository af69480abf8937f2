// Functions with no stream variable: their legacy-stream work moves to
// cudaStreamPerThread when every caller keeps every edge.
#include <cuda_runtime.h>

__global__ void twice(float *d) { d[0] *= 2.0f; }

// Nothing is pending at its calls, and it ends with a copy to the host.
void legacyStep(float *d, float *h, int n) {
  cudaMemsetAsync(d, 0, n); // applied
  twice<<<1, 64>>>(d); // applied
  cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost); // applied
}

// Called right after work on `s` that nobody waited for: on the legacy
// stream this launch waited for it.
void afterStream(float *d) {
  twice<<<1, 64>>>(d); // not applied: before it runs: its call at main.cu:25
  cudaDeviceSynchronize(); // not applied: before it runs: its call at main.cu:25
}

// The caller's next launch on `s` relied on the legacy stream's order.
void produce(float *d) {
  twice<<<1, 64>>>(d); // not applied: returns to its callers with this work possibly still running
}

// Timing on the legacy stream with the host waiting for the end: nothing
// of the callers' is pending (a device-wide wait comes first).
void timedOnly(float *d) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start); // applied
  twice<<<1, 64>>>(d); // applied
  cudaEventRecord(stop); // applied
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
}

// Work on an array of streams timed on the legacy stream (simpleHyperQ's
// shape): the function uses streams, so only the legacy-stream calls that
// move without any inserted wait do. The start event would need one before
// the array's launches, the stop event waited for them; the kernel after the
// stop event reads their results, and the stop event already waited for them.
void fanOut(float *d, cudaStream_t *streams, int n) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, 0); // not applied: moving it would need a wait for cudaStreamPerThread
  for (int i = 0; i < n; ++i)
    twice<<<1, 1, 0, streams[i]>>>(d + i);
  cudaEventRecord(stop, 0); // not applied: this work would no longer wait for the kernel launch
  twice<<<1, 64>>>(d); // applied
  cudaEventSynchronize(stop);
  cudaDeviceSynchronize();
}

// Nothing is pending when it is called (main waited for the device just
// before): a wait for the per-thread stream waits for everything the
// device-wide one did.
void waitIdle() {
  cudaDeviceSynchronize(); // applied
}
