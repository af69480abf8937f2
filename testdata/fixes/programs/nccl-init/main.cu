// HeCBench ccl's shape: a communicator initialized before a loop of copies
// and an all-reduce on a created stream. device-sync makes the synchronous
// copies Async on that stream; the host then no longer waits for work on
// other streams, such as what the initialization may leave behind.
#include <cuda_runtime.h>
#include <nccl.h>

// ncclCommInitRank outside a group runs the initialization on this thread
// and synchronizes NCCL's own (non-blocking) stream before it returns: it
// leaves nothing pending (api/LibraryApiTable.cpp has the evidence).
void rounds(float *h, int n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  ncclUniqueId id;
  ncclGetUniqueId(&id);
  ncclComm_t comm;
  ncclCommInitRank(&comm, 1, id, 0);
  for (int size = n / 4; size <= n; size *= 2) {
    float *d, *r;
    cudaMalloc(&d, size * sizeof(float));
    cudaMemcpy(d, h, size * sizeof(float), cudaMemcpyHostToDevice); // applied
    cudaMalloc(&r, size * sizeof(float));
    ncclAllReduce(d, r, size, ncclFloat, ncclSum, comm, s);
    cudaStreamSynchronize(s);
    cudaMemcpy(h, r, size * sizeof(float), cudaMemcpyDeviceToHost); // applied
    cudaFree(d);
    cudaFree(r);
  }
  ncclCommDestroy(comm);
}

// A non-blocking configuration: ncclCommInitRankConfig returns while a
// thread of NCCL's still initializes the communicator.
void roundsNonBlocking(float *h, int n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  ncclUniqueId id;
  ncclGetUniqueId(&id);
  ncclComm_t comm;
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  config.blocking = 0;
  ncclCommInitRankConfig(&comm, 1, id, 0, &config);
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  for (int round = 0; round < 4; ++round) {
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); // not applied: the host would no longer wait for the ncclCommInitRankConfig at line 42, which may issue CUDA work on any stream
    ncclAllReduce(d, d, n, ncclFloat, ncclSum, comm, s);
    cudaStreamSynchronize(s);
  }
  cudaFree(d);
}

// Inside a group the call only queues the initialization: ncclGroupEnd
// runs it, and may do anything.
void roundsInGroup(float *h, int n) {
  cudaStream_t s;
  cudaStreamCreate(&s);
  ncclUniqueId id;
  ncclGetUniqueId(&id);
  ncclComm_t comm;
  ncclGroupStart();
  ncclCommInitRank(&comm, 1, id, 0);
  ncclGroupEnd();
  float *d;
  cudaMalloc(&d, n * sizeof(float));
  for (int round = 0; round < 4; ++round) {
    cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice); // not applied: the host would no longer wait for the ncclGroupEnd at line 63, which may issue CUDA work on any stream
    ncclAllReduce(d, d, n, ncclFloat, ncclSum, comm, s);
    cudaStreamSynchronize(s);
  }
  cudaFree(d);
}

int main() {
  float h[256] = {};
  rounds(h, 256);
  roundsNonBlocking(h, 256);
  roundsInGroup(h, 256);
  __builtin_printf("%g\n", h[0]);
  return 0;
}
