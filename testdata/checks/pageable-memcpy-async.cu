// pageable-memcpy-async: every provenance form, with a negative for each.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>
#include <vector>

__global__ void kernel(float *data) {}

float globalBuffer[256];
static float staticBuffer[256];
__device__ float deviceSymbol[256];

// ---- pageable sources ----

void fromMalloc(float *device, size_t n, cudaStream_t stream) {
  float *host = (float *)malloc(n * sizeof(float));
  cudaMemcpyAsync(device, host, n * sizeof(float), cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{from pageable host memory (malloc)}}
  cudaMemcpyAsync(host, device, n * sizeof(float), cudaMemcpyDeviceToHost, stream); // CHECK: pageable-memcpy-async {{to pageable host memory}}
  cudaStreamSynchronize(stream);
  free(host);
}

void fromCallocReallocAligned(float *device, size_t n, cudaStream_t stream) {
  float *a = static_cast<float *>(calloc(n, sizeof(float)));
  float *b = (float *)realloc(nullptr, n * sizeof(float));
  float *c = (float *)aligned_alloc(64, n * sizeof(float));
  void *d = nullptr;
  posix_memalign(&d, 64, n * sizeof(float));
  cudaMemcpyAsync(device, a, n, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{calloc}}
  cudaMemcpyAsync(device, b, n, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{realloc}}
  cudaMemcpyAsync(device, c, n, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{aligned_alloc}}
  cudaMemcpyAsync(device, d, n, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{posix_memalign}}
}

void fromNew(float *device, size_t n, cudaStream_t stream) {
  float *many = new float[n];
  double *one = new double;
  cudaMemcpyAsync(device, many, n, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{new[]}}
  cudaMemcpyAsync(device, one, sizeof(double), cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{(new)}}
  delete one;
}

void fromContainers(float *device, cudaStream_t stream) {
  std::vector<float> values(256);
  std::string text = "hello";
  std::array<float, 16> fixed{};
  cudaMemcpyAsync(device, values.data(), 1024, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{std::vector 'values' storage}}
  cudaMemcpyAsync(device, &values[8], 32, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{'values'}}
  cudaMemcpyAsync(device, text.c_str(), 5, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{std::string 'text'}}
  cudaMemcpyAsync(device, fixed.data(), 64, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{stack variable 'fixed'}}
}

void fromStackAndGlobals(float *device, cudaStream_t stream) {
  float local[64];
  static float localStatic[64];
  cudaMemcpyAsync(device, local, sizeof(local), cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{stack variable 'local'}}
  cudaMemcpyAsync(local, device, sizeof(local), cudaMemcpyDeviceToHost, stream); // CHECK: pageable-memcpy-async {{to pageable}}
  cudaMemcpyAsync(device, localStatic, 256, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{static variable 'localStatic'}}
  cudaMemcpyAsync(device, globalBuffer, 1024, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{global variable 'globalBuffer'}}
  cudaMemcpyAsync(device, &staticBuffer[16], 64, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{'staticBuffer'}}
}

void throughArithmeticAndCasts(float *device, size_t n, cudaStream_t stream) {
  char *bytes = (char *)malloc(n);
  float *view = reinterpret_cast<float *>(bytes + 16);
  float *alias;
  alias = view;
  cudaMemcpyAsync(device, alias + 4, 64, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{malloc}}
  cudaMemcpyAsync(device, &view[2], 64, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async
  free(bytes);
}

struct Staging {
  float *host;
  float inlineBuffer[32];
};

void throughMembers(float *device, size_t n, cudaStream_t stream) {
  Staging staging;
  staging.host = (float *)malloc(n);
  cudaMemcpyAsync(device, staging.host, n, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{malloc}}
  cudaMemcpyAsync(device, staging.inlineBuffer, 128, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{stack variable 'staging'}}
}

class Uploader {
public:
  explicit Uploader(size_t n) : buffer_(new float[n]), values_(n) {}
  void upload(float *device, cudaStream_t stream) {
    cudaMemcpyAsync(device, buffer_, 64, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{new[]}}
    cudaMemcpyAsync(device, values_.data(), 64, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{std::vector 'values_'}}
  }

private:
  float *buffer_;
  std::vector<float> values_;
};

// A parameter whose every caller is visible: internal linkage.
static void uploadHelper(float *device, const float *host, cudaStream_t stream) {
  cudaMemcpyAsync(device, host, 64, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{malloc}}
}
namespace {
void downloadHelper(float *host, const float *device, cudaStream_t stream) {
  cudaMemcpyAsync(host, device, 64, cudaMemcpyDeviceToHost, stream); // CHECK: pageable-memcpy-async {{stack variable 'a'}}
}
} // namespace

void callsHelpers(float *device, cudaStream_t stream) {
  float *host = (float *)malloc(64);
  uploadHelper(device, host, stream);
  uploadHelper(device, host + 8, stream);
  float a[16];
  downloadHelper(a, device, stream);
}

// cudaMemcpyDefault: the host end decides.
void defaultKind(float *device, size_t n, cudaStream_t stream) {
  float *host = (float *)malloc(n);
  float *pinned = nullptr;
  cudaMallocHost((void **)&pinned, n);
  cudaMemcpyAsync(device, host, n, cudaMemcpyDefault, stream); // CHECK: pageable-memcpy-async
  cudaMemcpyAsync(pinned, host, n, cudaMemcpyDefault, stream); // CHECK: pageable-memcpy-async
  cudaMemcpyAsync(host, host + 1, n, cudaMemcpyDefault, stream); // host to host: nothing to stage
}

// 2D, symbols, 3D.
void otherApis(float *device, size_t pitch, cudaStream_t stream) {
  float *host = (float *)malloc(4096);
  cudaMemcpy2DAsync(device, pitch, host, 64, 64, 16, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async
  cudaMemcpy2DAsync(host, 64, device, pitch, 64, 16, cudaMemcpyDeviceToHost, stream); // CHECK: pageable-memcpy-async
  cudaMemcpyToSymbolAsync(deviceSymbol, host, 1024, 0, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async
  cudaMemcpyFromSymbolAsync(host, deviceSymbol, 1024, 0, cudaMemcpyDeviceToHost, stream); // CHECK: pageable-memcpy-async
  cudaMemcpy3DParms parms = {};
  parms.srcPtr.ptr = host;
  parms.dstPtr.ptr = device;
  parms.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3DAsync(&parms, stream); // CHECK: pageable-memcpy-async
  cudaMemcpy3DParms back = {};
  back.srcPtr = make_cudaPitchedPtr(device, pitch, 64, 16);
  back.dstPtr = make_cudaPitchedPtr(host, 64, 64, 16);
  back.kind = cudaMemcpyDeviceToHost;
  cudaMemcpy3DAsync(&back, stream); // CHECK: pageable-memcpy-async {{cudaMemcpy3DAsync to pageable}}
  float *pinned;
  cudaMallocHost((void **)&pinned, 4096);
  back.dstPtr = make_cudaPitchedPtr(pinned, 64, 64, 16); // dstPtr written twice: unknown
  cudaMemcpy3DAsync(&back, stream);
}

// A macro around the call: the caret goes to the expansion.
#define UPLOAD(dst, src, n, s) cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, s)
void throughMacro(float *device, cudaStream_t stream) {
  float staging[8];
  UPLOAD(device, staging, sizeof(staging), stream); // CHECK: pageable-memcpy-async
}

template <typename T> void uploadTemplate(T *device, cudaStream_t stream) {
  std::vector<T> values(64);
  cudaMemcpyAsync(device, values.data(), 64 * sizeof(T), cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async
}
template void uploadTemplate<float>(float *, cudaStream_t);

void inLambda(float *device, cudaStream_t stream) {
  auto upload = [=] {
    float scratch[4] = {};
    cudaMemcpyAsync(device, scratch, sizeof(scratch), cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async
  };
  upload();
}

// A lambda the library calls too, from std::for_each's body (which the
// parse skips): the copy the TU's own call makes from malloc'd memory is
// pageable whatever the library passes.
void lambdaHandedToLibrary(float *device, std::vector<float *> &pinned, cudaStream_t stream) {
  auto copyOne = [&](float *host) {
    cudaMemcpyAsync(device, host, 64, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async {{malloc, passed by 'lambdaHandedToLibrary'}}
  };
  float *staging = (float *)malloc(64);
  std::for_each(pinned.begin(), pinned.end(), copyOne);
  copyOne(staging);
}

// ---- negatives ----

void pinnedBuffers(float *device, size_t n, cudaStream_t stream) {
  float *a = nullptr, *b = nullptr, *c = nullptr;
  cudaMallocHost((void **)&a, n);
  cudaHostAlloc((void **)&b, n, cudaHostAllocDefault);
  cudaMallocManaged(&c, n);
  float *d;
  cudaMallocHost(&d, n); // the C++ template overload
  cudaMemcpyAsync(device, a, n, cudaMemcpyHostToDevice, stream);
  cudaMemcpyAsync(device, b + 4, n, cudaMemcpyHostToDevice, stream);
  cudaMemcpyAsync(c, device, n, cudaMemcpyDeviceToHost, stream);
  cudaMemcpyAsync(device, d, n, cudaMemcpyHostToDevice, stream);
}

void registeredMemory(float *device, size_t n, cudaStream_t stream) {
  std::vector<float> values(n);
  cudaHostRegister(values.data(), n * sizeof(float), cudaHostRegisterDefault);
  cudaMemcpyAsync(device, values.data(), n * sizeof(float), cudaMemcpyHostToDevice, stream);
  float *raw = (float *)malloc(n);
  cudaHostRegister(raw, n, cudaHostRegisterDefault);
  cudaMemcpyAsync(device, raw + 1, n, cudaMemcpyHostToDevice, stream);
}

void registeredTooLate(float *device, size_t n, cudaStream_t stream) {
  float *raw = (float *)malloc(n);
  cudaMemcpyAsync(device, raw, n, cudaMemcpyHostToDevice, stream); // CHECK: pageable-memcpy-async
  cudaHostRegister(raw, n, cudaHostRegisterDefault);
}

// Callers in other TUs may pass pinned memory: unknown, silent by default.
void externalUpload(float *device, const float *host, cudaStream_t stream) {
  cudaMemcpyAsync(device, host, 64, cudaMemcpyHostToDevice, stream);
}
static void mixedCallers(float *device, const float *host, cudaStream_t stream) {
  cudaMemcpyAsync(device, host, 64, cudaMemcpyHostToDevice, stream);
}
void callsMixed(float *device, cudaStream_t stream) {
  float *pinned;
  cudaMallocHost((void **)&pinned, 64);
  float pageable[16];
  mixedCallers(device, pinned, stream);
  mixedCallers(device, pageable, stream);
}
static void addressTaken(float *device, const float *host, cudaStream_t stream) {
  cudaMemcpyAsync(device, host, 64, cudaMemcpyHostToDevice, stream);
}
void (*upload)(float *, const float *, cudaStream_t) = addressTaken;

void deviceToDevice(float *device, size_t n, cudaStream_t stream) {
  float *other = nullptr;
  cudaMalloc((void **)&other, n);
  float local[4];
  cudaMemcpyAsync(other, device, n, cudaMemcpyDeviceToDevice, stream);
  cudaMemcpyAsync(local, local + 2, 8, cudaMemcpyHostToHost, stream);
  cudaMemcpyAsync(other, device, n, cudaMemcpyDefault, stream);
}

void reassignedToPinned(float *device, size_t n, cudaStream_t stream) {
  float *host = (float *)malloc(n);
  free(host);
  cudaMallocHost((void **)&host, n);
  cudaMemcpyAsync(device, host, n, cudaMemcpyHostToDevice, stream);
  float *maybe = (float *)malloc(n);
  if (n > 1024)
    cudaMallocHost((void **)&maybe, n);
  cudaMemcpyAsync(device, maybe, n, cudaMemcpyHostToDevice, stream); // pinned on one path only: unknown
}

void reassignedInLoop(float *device, size_t n, cudaStream_t stream) {
  float *host = (float *)malloc(n);
  for (int i = 0; i < 4; ++i) {
    cudaMemcpyAsync(device, host, n, cudaMemcpyHostToDevice, stream); // pinned from the second iteration on
    cudaMallocHost((void **)&host, n);
  }
}

void throughReference(float *device, size_t n, cudaStream_t stream) {
  float *host = (float *)malloc(n);
  float *&ref = host;
  cudaMallocHost((void **)&ref, n);
  cudaMemcpyAsync(device, host, n, cudaMemcpyHostToDevice, stream);
}

void allocatedElsewhere(float **slot);
void escapesToUnknownFunction(float *device, size_t n, cudaStream_t stream) {
  float *host = (float *)malloc(n);
  allocatedElsewhere(&host);
  cudaMemcpyAsync(device, host, n, cudaMemcpyHostToDevice, stream);
}

template <typename T> struct PinnedAllocator {
  using value_type = T;
  T *allocate(size_t n) { T *p; cudaMallocHost((void **)&p, n * sizeof(T)); return p; }
  void deallocate(T *p, size_t) { cudaFreeHost(p); }
};
void customAllocator(float *device, cudaStream_t stream) {
  std::vector<float, PinnedAllocator<float>> values(64);
  cudaMemcpyAsync(device, values.data(), 256, cudaMemcpyHostToDevice, stream);
}

struct ExternalRecord;
void unknownMembers(float *device, Staging *staging, std::vector<float> &values, cudaStream_t stream) {
  cudaMemcpyAsync(device, staging->inlineBuffer, 64, cudaMemcpyHostToDevice, stream); // staging may live in pinned memory
  cudaMemcpyAsync(device, values.data(), 64, cudaMemcpyHostToDevice, stream); // a reference: registration unknown
}

__managed__ float managedBuffer[64];
void managedSymbol(float *device, cudaStream_t stream) {
  cudaMemcpyAsync(device, managedBuffer, 256, cudaMemcpyHostToDevice, stream);
}

// Unknown with the default options: nothing (see -strict.cu for the notes).
void unknownPointer(float *device, float *host, cudaStream_t stream) {
  cudaMemcpyAsync(device, host, 64, cudaMemcpyHostToDevice, stream);
}
