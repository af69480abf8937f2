// pageable-memcpy-async: stack aggregates and their fields, as copy targets
// and sources, and pointers kept in local structs and arrays.
#include <cuda_runtime.h>

#include <cstdlib>

struct Stats {
  float loss;
  int count;
  float histogram[16];
};

struct Buffers {
  float *host;
  float *pinned;
};

struct Outer {
  Stats stats;
  float scratch[8];
};

void intoStackStruct(const Stats *deviceStats, float *device, cudaStream_t stream) {
  Stats stats;
  cudaMemcpyAsync(&stats, deviceStats, sizeof(Stats), cudaMemcpyDeviceToHost, stream); // CHECK: pageable-memcpy-async {{to pageable host memory (stack variable 'stats')}}
  cudaMemcpyAsync(&stats.loss, device, sizeof(float), cudaMemcpyDeviceToHost, stream); // CHECK: pageable-memcpy-async {{stack variable 'stats'}}
  cudaMemcpyAsync(stats.histogram, device, sizeof(stats.histogram), cudaMemcpyDeviceToHost, stream); // CHECK: pageable-memcpy-async {{stack variable 'stats'}}
  cudaMemcpyAsync(device, &stats.histogram[4], 4, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{from pageable host memory (stack variable 'stats')}}
  Outer outer;
  cudaMemcpyAsync(outer.stats.histogram, device, 64, cudaMemcpyDeviceToHost, stream); // CHECK: pageable-memcpy-async {{stack variable 'outer'}}
  cudaMemcpyAsync(&outer.scratch[1], device, 4, cudaMemcpyDeviceToHost, stream); // CHECK: pageable-memcpy-async {{stack variable 'outer'}}
  Stats many[4];
  cudaMemcpyAsync(&many[2], deviceStats, sizeof(Stats), cudaMemcpyDeviceToHost, stream); // CHECK: pageable-memcpy-async {{stack variable 'many'}}
  cudaMemcpyAsync(many[1].histogram, device, 64, cudaMemcpyDeviceToHost, stream); // CHECK: pageable-memcpy-async {{stack variable 'many'}}
  cudaStreamSynchronize(stream);
}

void pointersInLocalAggregates(float *device, size_t n, cudaStream_t stream) {
  Buffers buffers;
  buffers.host = (float *)malloc(n);
  cudaMallocHost((void **)&buffers.pinned, n);
  cudaMemcpyAsync(device, buffers.host, n, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{malloc}}
  cudaMemcpyAsync(device, buffers.pinned, n, cudaMemcpyHostToDevice, stream);
  Buffers initialized = {(float *)malloc(n), nullptr};
  cudaMemcpyAsync(device, initialized.host, n, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{malloc}}
  float *slots[2];
  slots[0] = (float *)malloc(n);
  slots[1] = (float *)malloc(n);
  cudaMemcpyAsync(device, slots[1], n, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{malloc}}
  float *pinnedSlots[2];
  cudaMallocHost((void **)&pinnedSlots[0], n);
  cudaMallocHost((void **)&pinnedSlots[1], n);
  cudaMemcpyAsync(device, pinnedSlots[0], n, cudaMemcpyHostToDevice, stream);
  free(buffers.host);
  free(initialized.host);
}

// Negatives: a struct reached through a pointer or reference may live in
// pinned memory; a pinned struct is not pageable.
void negatives(Stats *somewhere, Stats &ref, const Stats *deviceStats, cudaStream_t stream) {
  cudaMemcpyAsync(somewhere, deviceStats, sizeof(Stats), cudaMemcpyDeviceToHost, stream);
  cudaMemcpyAsync(&ref.loss, deviceStats, sizeof(float), cudaMemcpyDeviceToHost, stream);
  Stats *pinned = nullptr;
  cudaMallocHost((void **)&pinned, sizeof(Stats));
  cudaMemcpyAsync(pinned->histogram, deviceStats, 64, cudaMemcpyDeviceToHost, stream);
  cudaMemcpyAsync(&pinned->loss, deviceStats, 4, cudaMemcpyDeviceToHost, stream);
}
