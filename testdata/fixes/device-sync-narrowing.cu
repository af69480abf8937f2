// device-sync's rewrites when the pending work is on known created streams
// (docs/fixes.md, rules 8 and 9): cudaDeviceSynchronize() after a loop that
// issues its work to the streams of one array becomes a loop, over the same
// range, that waits for each of those streams; a synchronous copy while all
// pending work is on one stream becomes its Async form on that stream and a
// wait for it. "// applied" / "// not applied: <reason>" are checked by
// tests/checks/OrderingFixTest.cpp, the edits by FixGoldenTest.
#include <cuda_runtime.h>

#define CHECK(x)                                                                   \
  do {                                                                             \
    if ((x) != cudaSuccess)                                                        \
      __builtin_abort();                                                           \
  } while (0)

__global__ void part(float *d, int offset) { d[offset] += 1.0f; }

// perlin's shape: the device was idle when the loop started, and each stream
// of the array got one piece of the work.
void fillParts(float *d, cudaStream_t *streams, int nStreams) {
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < nStreams; ++i) {
    part<<<1, 1, 0, streams[i]>>>(d, i);
  }
  CHECK(cudaDeviceSynchronize()); // applied
}

// Legacy-stream work is pending too: waiting for the array's streams does not
// wait for it (nothing in the array's streams came after it on the legacy
// stream's terms: their blocking is not known here).
void legacyBefore(float *d, cudaStream_t *streams, int nStreams) {
  cudaDeviceSynchronize();
  part<<<1, 1>>>(d, 0);
  for (int i = 0; i < nStreams; ++i)
    part<<<1, 1, 0, streams[i]>>>(d, i);
  cudaDeviceSynchronize(); // not applied: the host would no longer wait for the kernel launch at line 33 (legacy default stream)
}

// Another stream's work is pending.
void otherStream(float *d, cudaStream_t *streams, int nStreams, cudaStream_t side) {
  cudaDeviceSynchronize();
  part<<<1, 1, 0, side>>>(d, 0);
  for (int i = 0; i < nStreams; ++i)
    part<<<1, 1, 0, streams[i]>>>(d, i);
  cudaDeviceSynchronize(); // not applied: the host would no longer wait for the kernel launch at line 42 (stream 'side')
}

// The callers' work: nothing in the function waits for the device before
// the loop, and the whole-program facts cannot clear every caller (the
// first call below issues work on another stream first).
void callersWork(float *d, cudaStream_t *streams, int nStreams) {
  for (int i = 0; i < nStreams; ++i)
    part<<<1, 1, 0, streams[i]>>>(d, i);
  cudaDeviceSynchronize(); // not applied: the host would no longer wait for work the callers of 'callersWork' issued
}

// The loop's bound changes before the wait: the rewrite would wait for other
// streams than those that got work, so no rewrite is offered (no marker).
void boundChanges(float *d, cudaStream_t *streams, int nStreams) {
  cudaDeviceSynchronize();
  for (int i = 0; i < nStreams; ++i)
    part<<<1, 1, 0, streams[i]>>>(d, i);
  nStreams = 1;
  cudaDeviceSynchronize();
}

// A synchronous copy while the work pending is all on one created stream:
// the Async copy on that stream, then a wait for it (inside the same macro).
void copyBack(float *d, float *h, cudaStream_t s) {
  cudaDeviceSynchronize();
  part<<<1, 1, 0, s>>>(d, 0);
  CHECK(cudaMemcpy(h, d, sizeof(float), cudaMemcpyDeviceToHost)); // applied
}

// Legacy-stream work before the work on s: s is blocking (every caller
// passes a stream made by cudaStreamCreate), so the launch on s waited for
// it, and waiting for s waits for both.
void copyAfterLegacy(float *d, float *h, cudaStream_t s) {
  cudaDeviceSynchronize();
  part<<<1, 1>>>(d, 1);
  part<<<1, 1, 0, s>>>(d, 0);
  cudaMemcpy(h, d, sizeof(float), cudaMemcpyDeviceToHost); // applied
}

// Legacy-stream work after the work on s: the Async copy on s waits for it
// (s is blocking: every caller passes a stream made by cudaStreamCreate), and
// waiting for s then waits for both.
void copyBeforeLegacy(float *d, float *h, cudaStream_t s) {
  cudaDeviceSynchronize();
  part<<<1, 1, 0, s>>>(d, 0);
  part<<<1, 1>>>(d, 1);
  cudaMemcpy(h, d, sizeof(float), cudaMemcpyDeviceToHost); // applied
}

// Every caller passes the legacy stream for s: the copy would stay on it, so
// the rewrite would change nothing (cdpAdvancedQuicksort's shape).
void copyLegacyCaller(float *d, float *h, cudaStream_t s) {
  cudaDeviceSynchronize();
  part<<<1, 1, 0, s>>>(d, 0);
  cudaMemcpy(h, d, sizeof(float), cudaMemcpyDeviceToHost); // not applied: every caller of 'copyLegacyCaller' passes the legacy stream (0) for 's'
}

// The same on a non-blocking stream: the copy on it would not wait for the
// legacy launch, which the legacy copy did.
void copyBeforeLegacyNonBlocking(float *d, float *h, cudaStream_t quiet) {
  cudaDeviceSynchronize();
  part<<<1, 1, 0, quiet>>>(d, 0);
  part<<<1, 1>>>(d, 1);
  cudaMemcpy(h, d, sizeof(float), cudaMemcpyDeviceToHost); // not applied: the host would no longer wait for the kernel launch at line 108 (legacy default stream)
}

int main() {
  float *d, h[8];
  cudaMalloc(&d, sizeof h);
  cudaStream_t streams[4], side, s;
  for (int i = 0; i < 4; ++i)
    cudaStreamCreate(&streams[i]);
  cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  cudaStreamCreate(&s);
  for (int round = 0; round < 4; ++round) {
    fillParts(d, streams, 4);
    legacyBefore(d, streams, 4);
    otherStream(d, streams, 4, side);
    part<<<1, 1, 0, side>>>(d, 5);
    callersWork(d, streams, 4);
    boundChanges(d, streams, 4);
    copyBack(d, h, s);
    copyAfterLegacy(d, h, s);
    copyBeforeLegacy(d, h, s);
    copyLegacyCaller(d, h, 0);
    copyBeforeLegacyNonBlocking(d, h, side);
  }
  cudaDeviceSynchronize();
  for (int i = 0; i < 4; ++i)
    cudaStreamDestroy(streams[i]);
  return h[0] > 0 ? 0 : 1;
}
