#pragma once
// A resources interface (as GPU libraries abstract their allocators): the
// loops below call it through the base class; the overriders that allocate
// are defined in other files.
#include <cstddef>

struct Resources {
  virtual ~Resources() = default;
  virtual void *allocMemory(size_t bytes) = 0;
  virtual void deallocMemory(void *p) = 0;
};

struct DeviceResources : Resources {
  void *allocMemory(size_t bytes) override;
  void deallocMemory(void *p) override;
};

// Pinned host memory, one level further down the hierarchy.
struct HostResources : DeviceResources {
  void *allocMemory(size_t bytes) override;
  void deallocMemory(void *p) override;
};

// Allocates nothing: its calls alone never make a loop churn.
struct NullResources : Resources {
  void *allocMemory(size_t) override { return nullptr; }
  void deallocMemory(void *) override {}
};

void reclaimPerList(Resources &resources, int lists);
void setUp(Resources *resources, void **slots, int n);
