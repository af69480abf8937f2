// Threads that any program linking this file may start: one from a
// function a global's initializer calls, one from a lambda (called
// wherever it is passed).
#include <cuda_runtime.h>
#include <thread>

int startAtLoad() {
  std::thread worker([] {});
  worker.join();
  return 1;
}

static int started = startAtLoad();

void startInLambda(float *d) {
  auto spawn = [d] {
    std::thread worker([d] { cudaMemset(d, 0, 4); });
    worker.join();
  };
  spawn();
}
