// default-stream: the stream a fix suggests is the one the program
// demonstrably uses (tests/checks/DefaultStreamSuggestionTest.cpp checks the
// fixes line by line; each site's comment names the expected stream).
#include <cuda_runtime.h>

__global__ void kernel(float *data) { data[0] = 1.0f; }

cudaStream_t g_stream;

// All of this file's free functions run their work on g_stream.
void step(float *d) {
  kernel<<<1, 32, 0, g_stream>>>(d);
  cudaMemsetAsync(d, 0, 4, g_stream);
}

void timeSteps(float *d, cudaEvent_t start, cudaEvent_t stop) {
  cudaEventRecord(start); // CHECK: default-stream {{cudaEventRecord uses the legacy default stream}}
  step(d);
  cudaEventRecord(stop, 0); // CHECK: default-stream
}

void sameFunction(float *d, cudaEvent_t start) {
  cudaEventRecord(start); // CHECK: default-stream
  kernel<<<1, 32, 0, g_stream>>>(d);
}

int main() {
  float *d = nullptr;
  cudaEvent_t start;
  cudaEventRecord(start); // CHECK: default-stream
  cudaStreamCreate(&g_stream);
  cudaEventRecord(start); // CHECK: default-stream
  step(d);
  return 0;
}

// A member stream: the class's other methods run on it.
class Engine {
public:
  Engine() { cudaStreamCreate(&stream_); }
  void run(float *d) { kernel<<<1, 32, 0, stream_>>>(d); }
  void mark(cudaEvent_t e) {
    cudaEventRecord(e); // CHECK: default-stream
  }

private:
  cudaStream_t stream_;
};

// Two member streams: no single one in evidence.
class TwoStreams {
public:
  void a(float *d) { kernel<<<1, 32, 0, first_>>>(d); }
  void b(float *d) { kernel<<<1, 32, 0, second_>>>(d); }
  void mark(cudaEvent_t e) {
    cudaEventRecord(e); // CHECK: default-stream
  }

private:
  cudaStream_t first_, second_;
};
