// pageable-memcpy-async: where pinning the buffer could change what the
// program computes, the fix stays a suggestion that says why ("// not
// applied: <reason>"), or there is none and a note says why ("// no fix:
// <reason>"). Checked by tests/checks/OrderingFixTest.cpp.
#include <cuda_runtime.h>

#include <cstdlib>

float *exported(size_t bytes) { return (float *)malloc(bytes); }

void viaExported(float *device, size_t n, cudaStream_t stream) {
  float *h = exported(n);
  cudaMemcpyAsync(device, h, n, cudaMemcpyHostToDevice, stream); // no fix: which code in other files could also call
  cudaStreamSynchronize(stream);
  free(h);
}

// The pageable copy to the host returned when it was done; a pinned one
// returns at once, and the host reads the buffer right after.
float readsEarly(float *device, size_t n, cudaStream_t stream) {
  float *h = (float *)malloc(n);
  cudaMemcpyAsync(h, device, n, cudaMemcpyDeviceToHost, stream); // not applied: the host uses 'h' at line 23 before waiting for the copy at line 22
  float first = h[0];
  cudaStreamSynchronize(stream);
  free(h);
  return first;
}

// The pageable copy also waited for the stream's earlier work, which wrote
// the pinned result the host reads next.
void readsOther(float *device, float *pinnedResult, size_t n, cudaStream_t stream, float *out) {
  float *h = (float *)malloc(n);
  cudaMemcpyAsync(device, h, n, cudaMemcpyHostToDevice, stream); // not applied: the host reads or writes memory the device may write at line 34
  *out = pinnedResult[0];
  cudaStreamSynchronize(stream);
  free(h);
}

void cleanup(float *p);

void freedElsewhere(float *device, size_t n, cudaStream_t stream) {
  float *h = (float *)malloc(n);
  cudaMemcpyAsync(device, h, n, cudaMemcpyHostToDevice, stream); // no fix: 'h' is passed to 'cleanup' is not defined in this file and could free it
  cudaStreamSynchronize(stream);
  cleanup(h);
}

static float *once = nullptr;

void allocateTwice(size_t n) {
  once = (float *)malloc(n);
  free(once);
  once = (float *)malloc(2 * n);
}

void useOnce(float *device, size_t n, cudaStream_t stream) {
  cudaMemcpyAsync(device, once, n, cudaMemcpyHostToDevice, stream); // no fix: is not one malloc or new[] whose pointer one variable holds
  cudaStreamSynchronize(stream);
}

// Standard library calls that may touch memory the device writes: one given
// the program's code ('bump' may read anything), one reading through a
// pointer of unknown origin (a parameter: it may be pinned or managed memory
// earlier work on the stream writes), one given a container (its elements may
// be such memory).
#include <algorithm>
#include <cstring>
#include <vector>

void bump(float &v);

void libraryCallback(float *device, float *values, size_t n, cudaStream_t stream) {
  float *h = (float *)malloc(n);
  cudaMemcpyAsync(device, h, n, cudaMemcpyHostToDevice, stream); // not applied: the host calls 'for_each', which could read memory the device writes
  std::for_each(values, values + 4, bump);
  cudaStreamSynchronize(stream);
  free(h);
}

bool libraryPointer(float *device, const char *mode, size_t n, cudaStream_t stream) {
  float *h = (float *)malloc(n);
  cudaMemcpyAsync(device, h, n, cudaMemcpyHostToDevice, stream); // not applied: the host passes memory the device may write to 'strcmp'
  bool chol = strcmp(mode, "chol") == 0;
  cudaStreamSynchronize(stream);
  free(h);
  return chol;
}

size_t libraryContainer(float *device, std::vector<float> &values, size_t n, cudaStream_t stream) {
  float *h = (float *)malloc(n);
  cudaMemcpyAsync(device, h, n, cudaMemcpyHostToDevice, stream); // not applied: the host passes an object that may hold memory the device writes to 'size'
  size_t count = values.size();
  cudaStreamSynchronize(stream);
  free(h);
  return count;
}
