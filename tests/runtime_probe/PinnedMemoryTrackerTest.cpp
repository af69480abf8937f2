#include "PinnedMemoryTracker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

using namespace streamlint::probe;

namespace {
struct QueryLog {
  int calls = 0;
  HostMemory answer = HostMemory::Pageable;
};
HostMemory fakeDriver(std::uintptr_t, void *context) {
  auto *log = static_cast<QueryLog *>(context);
  ++log->calls;
  return log->answer;
}
} // namespace

TEST(PinnedMemoryTracker, FindsAddressesInsideRanges) {
  auto t = std::make_unique<PinnedMemoryTracker>();
  PinnedMemoryTracker::ThreadCache cache;
  t->add(0x30000, 0x1000, HostRangeKind::Pinned);
  t->add(0x10000, 0x1000, HostRangeKind::Pinned);
  t->add(0x20000, 0x800, HostRangeKind::Managed);
  EXPECT_EQ(t->size(), 3u);
  EXPECT_EQ(t->find(0x10000, cache), HostRangeKind::Pinned);
  EXPECT_EQ(t->find(0x10fff, cache), HostRangeKind::Pinned);
  EXPECT_EQ(t->find(0x11000, cache), HostRangeKind::None);
  EXPECT_EQ(t->find(0x0ffff, cache), HostRangeKind::None);
  EXPECT_EQ(t->find(0x207ff, cache), HostRangeKind::Managed);
  EXPECT_EQ(t->find(0x20800, cache), HostRangeKind::None);
  EXPECT_EQ(t->find(0x30800, cache), HostRangeKind::Pinned);
  EXPECT_TRUE(t->remove(0x30000));
  EXPECT_FALSE(t->remove(0x30000));
  EXPECT_EQ(t->find(0x30800, cache), HostRangeKind::None); // cache invalidated
  EXPECT_EQ(t->find(0x10010, cache), HostRangeKind::Pinned);
}

// The driver is asked once per address (and per change of the ranges), not
// per copy; known pinned ranges never ask it.
TEST(PinnedMemoryTracker, AsksTheDriverOncePerUnknownAddress) {
  auto t = std::make_unique<PinnedMemoryTracker>();
  PinnedMemoryTracker::ThreadCache cache;
  QueryLog log;
  for (int i = 0; i < 1000; ++i)
    EXPECT_EQ(t->classify(0x5000, cache, fakeDriver, &log), HostMemory::Pageable);
  EXPECT_EQ(log.calls, 1);
  t->add(0x9000, 0x1000, HostRangeKind::Pinned);
  for (int i = 0; i < 1000; ++i)
    EXPECT_EQ(t->classify(0x9000 + i, cache, fakeDriver, &log), HostMemory::Pinned);
  EXPECT_EQ(log.calls, 1);
  // A registration changes the generation: the old answer is not trusted.
  t->add(0x5000, 0x100, HostRangeKind::Pinned);
  EXPECT_EQ(t->classify(0x5000, cache, fakeDriver, &log), HostMemory::Pinned);
  t->remove(0x5000);
  EXPECT_EQ(t->classify(0x5000, cache, fakeDriver, &log), HostMemory::Pageable);
  EXPECT_EQ(log.calls, 2);
  // Memory pinned where the probe did not look: the driver's answer stands.
  log.answer = HostMemory::Pinned;
  EXPECT_EQ(t->classify(0x77000, cache, fakeDriver, &log), HostMemory::Pinned);
  EXPECT_EQ(t->classify(0x20000, cache, nullptr, nullptr), HostMemory::Unknown);
}

TEST(PinnedMemoryTracker, ManagedMemoryIsNeitherPinnedNorPageable) {
  auto t = std::make_unique<PinnedMemoryTracker>();
  PinnedMemoryTracker::ThreadCache cache;
  QueryLog log;
  t->add(0x40000, 0x10000, HostRangeKind::Managed);
  EXPECT_EQ(t->classify(0x40010, cache, fakeDriver, &log), HostMemory::Unknown);
  EXPECT_EQ(log.calls, 0);
}

// A full table drops the range (counted): its copies fall back to the
// driver query, still classified right.
TEST(PinnedMemoryTracker, FullTableFallsBackToTheDriver) {
  auto t = std::make_unique<PinnedMemoryTracker>();
  PinnedMemoryTracker::ThreadCache cache;
  for (std::size_t i = 0; i < PinnedMemoryTracker::kCapacity; ++i)
    t->add(0x100000 + i * 0x1000, 0x1000, HostRangeKind::Pinned);
  t->add(0x90000000, 0x1000, HostRangeKind::Pinned);
  EXPECT_EQ(t->overflowed(), 1u);
  EXPECT_EQ(t->find(0x100000 + 4095 * 0x1000 + 5, cache), HostRangeKind::Pinned);
  QueryLog log;
  log.answer = HostMemory::Pinned;
  EXPECT_EQ(t->classify(0x90000000, cache, fakeDriver, &log), HostMemory::Pinned);
  EXPECT_EQ(log.calls, 1);
}

// cudaFree of device memory (the allocation bench's every other call) is
// answered without the writers' lock: only a range's own start removes it,
// and an address inside a range or between ranges leaves every range as is.
TEST(PinnedMemoryTracker, RemovesOnlyAtARangesStart) {
  auto t = std::make_unique<PinnedMemoryTracker>();
  PinnedMemoryTracker::ThreadCache cache;
  EXPECT_FALSE(t->startsRange(0x10000)); // empty table
  EXPECT_FALSE(t->remove(0x10000));
  t->add(0x10000, 0x1000, HostRangeKind::Pinned);
  t->add(0x30000, 0x1000, HostRangeKind::Managed);
  EXPECT_TRUE(t->startsRange(0x10000));
  EXPECT_TRUE(t->startsRange(0x30000));
  EXPECT_FALSE(t->startsRange(0x10800)); // inside
  EXPECT_FALSE(t->startsRange(0x20000)); // between
  EXPECT_FALSE(t->startsRange(0x40000)); // past the last
  EXPECT_FALSE(t->remove(0x10800));
  EXPECT_FALSE(t->remove(0x7f0000000000));
  EXPECT_EQ(t->size(), 2u);
  EXPECT_EQ(t->find(0x10800, cache), HostRangeKind::Pinned);
  EXPECT_TRUE(t->remove(0x30000));
  EXPECT_FALSE(t->startsRange(0x30000));
  EXPECT_EQ(t->size(), 1u);
}

// Frees of unknown addresses on other threads while ranges come and go:
// no range is lost or removed by them (the lock-free search retries a torn
// read).
TEST(PinnedMemoryTracker, LockFreeRemoveMissesRaceWithWriters) {
  auto t = std::make_unique<PinnedMemoryTracker>();
  t->add(0x1000, 0x100, HostRangeKind::Pinned); // stays throughout
  std::atomic<bool> done{false};
  std::atomic<long> wrongRemovals{0};
  std::vector<std::thread> freers;
  for (int k = 0; k < 2; ++k)
    freers.emplace_back([&, k] {
      std::uintptr_t address = 0x7f0000000000 + k * 0x100000;
      while (!done.load())
        if (t->remove(address += 0x1000))
          wrongRemovals.fetch_add(1);
    });
  for (int i = 0; i < 20000; ++i) {
    std::uintptr_t start = 0x100000 + (i % 64) * 0x10000;
    t->add(start, 0x1000, HostRangeKind::Pinned);
    EXPECT_TRUE(t->remove(start));
  }
  done.store(true);
  for (auto &f : freers)
    f.join();
  EXPECT_EQ(wrongRemovals.load(), 0);
  EXPECT_EQ(t->size(), 1u);
  EXPECT_TRUE(t->startsRange(0x1000));
}
