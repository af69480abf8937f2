// device-sync: a call through a base class reaches every overrider defined in
// the program (class hierarchy analysis), so a loop calling an interface
// makes each overrider's synchronization a hot path.
#include <cuda_runtime.h>

struct Stage {
  virtual ~Stage() = default;
  virtual void run(cudaStream_t stream) = 0;
  virtual void finish() {}
};

struct BlockingStage : Stage {
  void run(cudaStream_t stream) override {
    cudaDeviceSynchronize(); // CHECK: device-sync {{called from the loop at line 33 through BlockingStage::run (virtual call of 'Stage::run')}} [[calls 'BlockingStage::run (virtual call of 'Stage::run')' here]]
  }
};

// Two levels down: reached through Stage::run as well.
struct TimedStage : BlockingStage {
  void run(cudaStream_t stream) override {
    cudaStreamSynchronize(stream);
    cudaDeviceSynchronize(); // CHECK: device-sync {{line 33 through TimedStage::run (virtual call of 'Stage::run')}}
  }
};

// finish() is only ever called once, after the loop: its sync is a note.
struct FlushingStage : Stage {
  void run(cudaStream_t) override {}
  void finish() override { cudaDeviceSynchronize(); } // CHECK: device-sync(note) {{not on a hot path}}
};

void pipeline(Stage **stages, int count, cudaStream_t stream) {
  for (int i = 0; i < count; ++i)
    stages[i]->run(stream);
  stages[0]->finish();
}
