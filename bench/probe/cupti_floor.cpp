// The floor under the probe: an injection library that subscribes to the
// runtime API domain with an empty callback, exactly as the probe does
// (push/pop call configuration off), and records nothing. Whatever a program
// pays under it is CUPTI's own cost; bench/probe/run_bench.sh runs it as a
// variant (floor=libcupti_floor.so) so that the probe's share can be told
// from CUPTI's. Build:
//   g++ -O2 -shared -fPIC -I/usr/local/cuda/include bench/probe/cupti_floor.cpp \
//       -L/usr/local/cuda/lib64 -lcupti -o libcupti_floor.so
#include <cupti.h>

#include <initializer_list>

namespace {
void CUPTIAPI emptyCallback(void *, CUpti_CallbackDomain, CUpti_CallbackId,
                            const void *) {}
} // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  static bool started = false;
  if (started)
    return 1;
  started = true;
  CUpti_SubscriberHandle subscriber;
  if (cuptiSubscribe(&subscriber, emptyCallback, nullptr) != CUPTI_SUCCESS)
    return 1;
  cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
  for (CUpti_CallbackId id : {CUPTI_RUNTIME_TRACE_CBID___cudaPushCallConfiguration_v13000,
                              CUPTI_RUNTIME_TRACE_CBID___cudaPopCallConfiguration_v13000})
    cuptiEnableCallback(0, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, id);
  return 1;
}
