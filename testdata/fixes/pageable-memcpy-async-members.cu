// pageable-memcpy-async's pinned allocation for buffers held in members:
// the one malloc/new[] that sets the member becomes cudaMallocHost, every
// free/delete[] of it cudaFreeHost. Markers ("// applied", "// not applied:
// <reason>", "// no fix: <reason>") are checked by OrderingFixTest, the
// edits by FixGoldenTest.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

// Allocated in the constructor, freed in the destructor; every copy is
// waited for before the host touches the buffer.
class Pipeline {
public:
  explicit Pipeline(size_t n) : n_(n) {
    host_ = (float *)malloc(n * sizeof(float));
    cudaMalloc(&device_, n * sizeof(float));
    cudaStreamCreate(&stream_);
  }
  ~Pipeline() {
    free(host_);
    host_ = nullptr;
    cudaFree(device_);
    cudaStreamDestroy(stream_);
  }
  float run() {
    for (size_t i = 0; i < n_; ++i)
      host_[i] = float(i);
    cudaMemcpyAsync(device_, host_, n_ * sizeof(float), cudaMemcpyHostToDevice, stream_); // applied
    cudaMemcpyAsync(host_, device_, n_ * sizeof(float), cudaMemcpyDeviceToHost, stream_);
    cudaStreamSynchronize(stream_);
    return host_[n_ - 1];
  }

private:
  size_t n_;
  float *host_ = nullptr;
  float *device_ = nullptr;
  cudaStream_t stream_;
};

// A plain struct set up and torn down by functions, new[] and delete[].
struct Buffers {
  int *h;
  int *d;
  cudaStream_t s;
  int n;
};

void init(Buffers &b, int n) {
  b.n = n;
  b.h = new int[n];
  cudaMalloc(&b.d, n * sizeof(int));
  cudaStreamCreate(&b.s);
}

void step(Buffers &b) {
  cudaMemcpyAsync(b.d, b.h, b.n * sizeof(int), cudaMemcpyHostToDevice, b.s); // applied
  cudaStreamSynchronize(b.s);
}

void fini(Buffers &b) {
  delete[] b.h;
  cudaFree(b.d);
  cudaStreamDestroy(b.s);
}

// The host reads the buffer before waiting for the copy into it.
struct Early {
  float *h = nullptr;
  float *d = nullptr;
  Early() { h = (float *)malloc(64); }
  ~Early() { free(h); }
  float read(cudaStream_t s) {
    cudaMemcpyAsync(h, d, 64, cudaMemcpyDeviceToHost, s); // not applied: the host uses 'h' at line 76 before waiting for the copy at line 75
    float first = h[0];
    cudaStreamSynchronize(s);
    return first;
  }
};

struct InList {
  float *h;
  explicit InList(size_t n) : h((float *)malloc(n)) {}
  ~InList() { free(h); }
  void send(float *d, cudaStream_t s) {
    cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); // no fix: the buffer is not held in one pointer variable or member that the fix could rewrite
    cudaStreamSynchronize(s);
  }
};

struct Copied {
  float *h = nullptr;
  Copied() { h = (float *)malloc(64); }
  ~Copied() { free(h); }
  float *send(float *d, cudaStream_t s) {
    cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); // no fix: 'h' is copied into 'alias'
    cudaStreamSynchronize(s);
    float *alias = h;
    return alias;
  }
};

struct Twice {
  float *h = nullptr;
  void grow(size_t n) { h = (float *)malloc(n); }
  void again() { h = (float *)malloc(32); }
  void send(float *d, cudaStream_t s) {
    cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); // no fix: is not one malloc or new[] whose pointer one variable holds
    cudaStreamSynchronize(s);
  }
};

struct Leaked {
  float *h = nullptr;
  Leaked() { h = (float *)malloc(64); }
  void send(float *d, cudaStream_t s) {
    cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); // no fix: 'h' is never freed
    cudaStreamSynchronize(s);
  }
};

struct Global {
  float *h = nullptr;
  Global() { h = (float *)malloc(64); }
  ~Global() { free(h); }
  void send(float *d, cudaStream_t s) {
    cudaMemcpyAsync(d, h, 64, cudaMemcpyHostToDevice, s); // no fix: with static storage
    cudaStreamSynchronize(s);
  }
};
static Global global;

int main() {
  Pipeline pipeline(1024);
  printf("%f\n", pipeline.run());
  Buffers buffers;
  init(buffers, 16);
  step(buffers);
  fini(buffers);
  return 0;
}
