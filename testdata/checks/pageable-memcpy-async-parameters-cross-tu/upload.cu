// Copies whose host pointer is a parameter: what every caller in the program
// passes decides them (main.cu directly, stage.cu passing its own on).
#include "upload.cuh"

// main passes malloc memory, and so does stage (with main's buffer).
void upload(float *device, const float *host, size_t n, cudaStream_t stream) {
  cudaMemcpyAsync(device, host, n * sizeof(float), cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{from pageable host memory (malloc, passed by 'main')}}
}

// Only pinned memory is passed.
void uploadPinned(float *device, const float *host, size_t n, cudaStream_t stream) {
  cudaMemcpyAsync(device, host, n * sizeof(float), cudaMemcpyHostToDevice, stream);
}

// One call passes pinned memory, another pageable: not every call is slow,
// so the copy is not reported (as for callers in one TU).
void uploadMixed(float *device, const float *host, size_t n, cudaStream_t stream) {
  cudaMemcpyAsync(device, host, n * sizeof(float), cudaMemcpyHostToDevice, stream);
}

// Pinned here, before the copy, whatever the caller passes.
void uploadRegistered(float *device, float *host, size_t n, cudaStream_t stream) {
  cudaHostRegister(host, n * sizeof(float), cudaHostRegisterDefault);
  cudaMemcpyAsync(device, host, n * sizeof(float), cudaMemcpyHostToDevice, stream);
}

// main passes malloc memory that it pins with pin() from stage.cu.
void uploadPinnedElsewhere(float *device, const float *host, size_t n, cudaStream_t stream) {
  cudaMemcpyAsync(device, host, n * sizeof(float), cudaMemcpyHostToDevice, stream);
}

// main.cu takes its address: callers through the pointer are not known.
void uploadByPointer(float *device, const float *host, size_t n, cudaStream_t stream) {
  cudaMemcpyAsync(device, host, n * sizeof(float), cudaMemcpyHostToDevice, stream);
}

// No call anywhere in the program (an entry point for code outside it).
void uploadUncalled(float *device, const float *host, size_t n, cudaStream_t stream) {
  cudaMemcpyAsync(device, host, n * sizeof(float), cudaMemcpyHostToDevice, stream);
}

// Device to host, into main's stack array.
void download(float *host, const float *device, size_t n, cudaStream_t stream) {
  cudaMemcpyAsync(host, device, n * sizeof(float), cudaMemcpyDeviceToHost, stream); // CHECK: pageable-memcpy-async {{to pageable host memory (stack variable 'results', passed by 'main')}}
}

// A member function: main passes a std::vector's storage.
void Uploader::push(float *device, const float *host, size_t n) {
  cudaMemcpyAsync(device, host, n * sizeof(float), cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{from pageable host memory (std::vector 'staging' storage, passed by 'main')}}
}
