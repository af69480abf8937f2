/* A link-time stand-in for libnccl.so.2 (same soname), so that a program
 * using NCCL builds where only NCCL's headers are (NVIDIA's wheel
 * nvidia-nccl-cu13 ships libnccl.so.2 on the GPU machine, found there
 * through LD_LIBRARY_PATH). Never run: every function fails.
 *   cc -shared -fPIC -Wl,-soname,libnccl.so.2 -o libnccl.so nccl_stub.c */
#include <stddef.h>
typedef int ncclResult_t;
typedef struct ncclComm *ncclComm_t;
static const ncclResult_t kInternalError = 3;
ncclResult_t ncclCommInitAll(ncclComm_t *c, int n, const int *d) { (void)c; (void)n; (void)d; return kInternalError; }
ncclResult_t ncclCommDestroy(ncclComm_t c) { (void)c; return kInternalError; }
ncclResult_t ncclCommCount(ncclComm_t c, int *n) { (void)c; (void)n; return kInternalError; }
ncclResult_t ncclGroupStart(void) { return kInternalError; }
ncclResult_t ncclGroupEnd(void) { return kInternalError; }
ncclResult_t ncclAllReduce(const void *s, void *r, size_t n, int t, int o, ncclComm_t c, void *st) {
  (void)s; (void)r; (void)n; (void)t; (void)o; (void)c; (void)st; return kInternalError;
}
const char *ncclGetErrorString(ncclResult_t r) { (void)r; return "stub libnccl: not the real library"; }
