// Probe overhead workloads, one call kind each. Prints "<mode> calls=<runtime
// API calls timed> us=<microseconds> cpu_us=<the thread's CPU time>
// batch_ns=<median over batches of 256 of ns per call>" for the timed part
// (after CUDA start-up; stream-ordered calls in batches of 256 whose
// synchronization is not timed); bench/probe/run_bench.sh turns them into
// added us per call.
//   probe_bench MODE [N]
//   launch          N empty kernels on a stream (default 100000)
//   copy-pinned     N 4 KiB cudaMemcpyAsync H2D from cudaMallocHost memory
//   copy-pageable   N 4 KiB cudaMemcpyAsync H2D from malloc memory
//   memset          N 4 KiB cudaMemsetAsync on a stream
//   event-record    N cudaEventRecord on a stream
//   stream-sync     N cudaStreamSynchronize of an idle stream
//   device-sync     N cudaDeviceSynchronize of an idle device
//   malloc-free     N cudaMalloc + cudaFree pairs of 4 KiB (2N calls)
//   get-last-error  N cudaGetLastError (a call no check looks at)
//   stream-create-destroy  N cudaStreamCreate + cudaStreamDestroy (2N calls;
//                   not in the catalog either)
//   pipeline [IT]   H2D, 4 kernels, D2H on 2 streams, IT rounds (default 200)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <vector>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__global__ void empty() {}

__global__ void work(float *x, int n, int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = x[i];
  for (int r = 0; r < rounds; ++r)
    v = v * 0.999f + 0.001f;
  x[i] = v;
}

static double nowUs() {
  using namespace std::chrono;
  return duration<double, std::micro>(steady_clock::now().time_since_epoch()).count();
}

static double threadCpuUs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int pipeline(cudaStream_t *s, int iters) {
  const int n = 1 << 21; // 8 MiB of floats per stream
  float *h[2], *d[2];
  for (int k = 0; k < 2; ++k) {
    cudaMallocHost(&h[k], n * sizeof(float));
    cudaMalloc(&d[k], n * sizeof(float));
    for (int i = 0; i < n; ++i)
      h[k][i] = float(i % 97);
  }
  long calls = 0;
  double t0 = nowUs();
  for (int it = 0; it < iters; ++it) {
    for (int k = 0; k < 2; ++k) {
      cudaMemcpyAsync(d[k], h[k], n * sizeof(float), cudaMemcpyHostToDevice, s[k]);
      for (int j = 0; j < 4; ++j)
        work<<<n / 256, 256, 0, s[k]>>>(d[k], n, 16);
      cudaMemcpyAsync(h[k], d[k], n * sizeof(float), cudaMemcpyDeviceToHost, s[k]);
      calls += 6;
    }
    for (int k = 0; k < 2; ++k)
      cudaStreamSynchronize(s[k]);
    calls += 2;
  }
  double us = nowUs() - t0;
  double sum = 0;
  for (int i = 0; i < n; ++i)
    sum += h[0][i] + h[1][i];
  std::printf("pipeline calls=%ld us=%.0f checksum=%.3f\n", calls, us, sum);
  return 0;
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "launch";
  cudaStream_t s[2];
  for (auto &st : s)
    cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
  empty<<<1, 1, 0, s[0]>>>(); // warm up
  cudaStreamSynchronize(s[0]);
  if (std::strcmp(mode, "pipeline") == 0)
    return pipeline(s, argc > 2 ? std::atoi(argv[2]) : 200);

  const size_t bytes = 4096;
  char *device = nullptr, *pinned = nullptr;
  char *pageable = static_cast<char *>(std::malloc(bytes));
  std::memset(pageable, 1, bytes);
  cudaMalloc(&device, bytes);
  cudaMallocHost(&pinned, bytes);
  cudaEvent_t event;
  cudaEventCreateWithFlags(&event, cudaEventDisableTiming);
  cudaMemcpyAsync(device, pinned, bytes, cudaMemcpyHostToDevice, s[0]); // warm up
  cudaMemcpyAsync(device, pageable, bytes, cudaMemcpyHostToDevice, s[0]);
  cudaStreamSynchronize(s[0]);

  // Stream-ordered calls are issued in batches of kBatch, each followed by
  // an untimed synchronization, so that the GPU never falls behind and the
  // timed part is the host's cost of the calls alone (an unbatched loop of
  // 100k small copies waits for the GPU and hides what the probe adds).
  const long kBatch = 256;
  // Besides the total, each batch's ns per loop iteration is kept: their
  // median is the steady per-call cost, which a preemption, a page fault or
  // a driver hiccup in a few batches does not move (the total does), and
  // the calling thread's CPU time leaves out time the VM was not running it.
  long n = argc > 2 ? std::atol(argv[2]) : 100000, calls = n;
  double us = 0, cpuUs = 0;
  std::vector<double> batchNs;
  auto timeBatch = [&](long count, auto body) {
    double c0 = threadCpuUs(), t0 = nowUs();
    body();
    double t = nowUs() - t0;
    cpuUs += threadCpuUs() - c0;
    us += t;
    batchNs.push_back(t * 1000 / count);
  };
  auto batched = [&](auto issue) {
    for (long done = 0; done < n; done += kBatch) {
      long count = n - done < kBatch ? n - done : kBatch;
      timeBatch(count, [&] {
        for (long i = 0; i < count; ++i)
          issue();
      });
      cudaStreamSynchronize(s[0]);
    }
  };
  auto unbatched = [&](auto call) { // timed in batches, with no wait between
    for (long done = 0; done < n; done += kBatch) {
      long count = n - done < kBatch ? n - done : kBatch;
      timeBatch(count, [&] {
        for (long i = 0; i < count; ++i)
          call();
      });
    }
  };
  if (std::strcmp(mode, "launch") == 0) {
    batched([&] { empty<<<1, 32, 0, s[0]>>>(); });
  } else if (std::strcmp(mode, "copy-pinned") == 0) {
    batched([&] { cudaMemcpyAsync(device, pinned, bytes, cudaMemcpyHostToDevice, s[0]); });
  } else if (std::strcmp(mode, "copy-pageable") == 0) {
    batched([&] { cudaMemcpyAsync(device, pageable, bytes, cudaMemcpyHostToDevice, s[0]); });
  } else if (std::strcmp(mode, "memset") == 0) {
    batched([&] { cudaMemsetAsync(device, 0, bytes, s[0]); });
  } else if (std::strcmp(mode, "event-record") == 0) {
    batched([&] { cudaEventRecord(event, s[0]); });
  } else if (std::strcmp(mode, "stream-sync") == 0) {
    unbatched([&] { cudaStreamSynchronize(s[1]); });
  } else if (std::strcmp(mode, "device-sync") == 0) {
    unbatched([&] { cudaDeviceSynchronize(); });
  } else if (std::strcmp(mode, "malloc-free") == 0) {
    unbatched([&] {
      char *p = nullptr;
      cudaMalloc(&p, bytes);
      cudaFree(p);
    });
    calls = 2 * n;
  } else if (std::strcmp(mode, "get-last-error") == 0) {
    unbatched([&] { (void)cudaGetLastError(); });
  } else if (std::strcmp(mode, "stream-create-destroy") == 0) {
    unbatched([&] {
      cudaStream_t created;
      cudaStreamCreate(&created);
      cudaStreamDestroy(created);
    });
    calls = 2 * n;
  } else {
    std::fprintf(stderr, "probe_bench: unknown mode %s\n", mode);
    return 2;
  }
  cudaStreamSynchronize(s[0]);
  std::sort(batchNs.begin(), batchNs.end());
  double perIteration = batchNs.empty() ? 0 : batchNs[batchNs.size() / 2];
  // ns per call: an iteration of malloc-free or stream-create-destroy is two
  std::printf("%s calls=%ld us=%.0f cpu_us=%.0f batch_ns=%.1f\n", mode, calls, us, cpuUs,
              perIteration * n / calls);
  cudaFreeHost(pinned);
  cudaFree(device);
  std::free(pageable);
  return 0;
}
