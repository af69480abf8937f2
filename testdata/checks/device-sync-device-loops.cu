// device-sync and alloc-in-loop: a loop that selects another device each
// iteration (cudaSetDevice/cuCtxSetCurrent with the loop's own variable)
// visits each GPU once: set-up and teardown, not a hot path. A loop inside
// it, a loop around it, or one that selects the same device every time
// still repeats.
#include <cuda.h>
#include <cuda_runtime.h>
#include <vector>

void setUp(float **buffers, int devices) {
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    cudaMalloc(&buffers[d], 1 << 20);
    cudaMemset(buffers[d], 0, 1 << 20); // CHECK: device-sync(note) {{not on a hot path}}
  }
}

void tearDown(float **buffers, int devices) {
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    cudaDeviceSynchronize(); // CHECK: device-sync(note) {{not on a hot path}}
    cudaFree(buffers[d]);
  }
}

void byList(const std::vector<int> &devices, float *buffer) {
  for (int device : devices) {
    cudaSetDevice(device);
    cudaDeviceSynchronize(); // CHECK: device-sync(note) {{not on a hot path}}
  }
  for (CUcontext context : std::vector<CUcontext>{}) {
    cuCtxSetCurrent(context);
    cuCtxSynchronize(); // CHECK: device-sync(note) {{not on a hot path}}
  }
}

void workPerDevice(float **buffers, int devices, int steps) {
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    for (int s = 0; s < steps; ++s) {
      cudaDeviceSynchronize(); // CHECK: device-sync {{inside the loop at line 40}}
    }
  }
}

void stepsOverDevices(float **buffers, int devices, int steps) {
  for (int s = 0; s < steps; ++s) {
    for (int d = 0; d < devices; ++d) {
      cudaSetDevice(d);
      cudaDeviceSynchronize(); // CHECK: device-sync {{inside the loop at line 47}}
    }
  }
}

void sameDeviceEveryTime(float *buffer, int steps) {
  for (int s = 0; s < steps; ++s) {
    cudaSetDevice(0);
    cudaDeviceSynchronize(); // CHECK: device-sync {{inside the loop at line 56}}
  }
}

// CHECKS: -*,device-sync,alloc-in-loop
void scratchPerDevice(int devices) {
  for (int d = 0; d < devices; ++d) {
    cudaSetDevice(d);
    float *scratch = nullptr;
    cudaMalloc(&scratch, 256);
    cudaFree(scratch);
  }
}

void scratchPerStep(int steps) {
  for (int s = 0; s < steps; ++s) {
    float *scratch = nullptr;
    cudaMalloc(&scratch, 256); // CHECK: alloc-in-loop
    cudaFree(scratch); // CHECK: alloc-in-loop
  }
}

#define CUDA_CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) return; } while (0)
void checkedTearDown(int devices) {
  for (int d = 0; d < devices; ++d) {
    CUDA_CHECK(cudaSetDevice(d));
    CUDA_CHECK(cudaDeviceSynchronize()); // CHECK: device-sync(note) {{not on a hot path}}
  }
}

// cuda-samples simpleCUFFT_MGPU: the device comes from a list indexed by i.
struct Descriptor { int GPUs[8]; };
void waitEach(const Descriptor *descriptor, int gpus) {
  int device;
  for (int i = 0; i < gpus; i++) {
    device = descriptor->GPUs[i];
    cudaSetDevice(device);
    cudaDeviceSynchronize(); // CHECK: device-sync(note) {{not on a hot path}}
  }
}
