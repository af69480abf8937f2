// Functions of another file: one with no CUDA work at all (the whole
// program says so), one that launches on the legacy stream.
#include <cuda_runtime.h>

__global__ void bump(float *d) { d[0] += 1.0f; }

void hostOnly(int *counter) { ++*counter; }

void deviceWork(float *d) { bump<<<1, 1>>>(d); }
