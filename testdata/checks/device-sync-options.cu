// CHECK-OPTION: device-sync.ExtraSyncFunctions=waitAll;drainQueues
#include <cuda_runtime.h>

void waitAll() {}
void drainQueues(int) {}
void other() {}

void loop(int n) {
  for (int i = 0; i < n; ++i) {
    waitAll(); // CHECK: device-sync {{ExtraSyncFunctions}}
    drainQueues(i); // CHECK: device-sync
    other();
  }
  waitAll(); // CHECK: device-sync(note)
}
