// alloc-in-loop at run time: churn, not repetition. Made-up call sequences
// drive the same handler the probe calls after each allocation and free.
#include "AllocationChurn.h"
#include "ApiCatalog.h"
#include "PinnedMemoryTracker.h"
#include "ProbeHandlers.h"

#include <gtest/gtest.h>

#include <vector>

using namespace streamlint::probe;

namespace {
/// A program's allocation calls, replayed through handleMemoryEvent.
struct Replay {
  AllocationChurn churn{1024};
  PinnedMemoryTracker pinned;
  std::uintptr_t next = 0x7f0000000000;

  std::uintptr_t alloc(SiteRecord &site, const char *api = "cudaMalloc_v3020",
                       std::uintptr_t reuse = 0) {
    ApiCall c;
    c.traits = classifyApi(api);
    c.address = reuse ? reuse : (next += 0x10000);
    c.bytes = 4096;
    recordCall(site, c);
    handleMemoryEvent(site, c, churn, pinned);
    return c.address;
  }
  void release(SiteRecord &site, std::uintptr_t address,
               const char *api = "cudaFree_v3020") {
    ApiCall c;
    c.traits = classifyApi(api);
    c.address = address;
    recordCall(site, c);
    handleMemoryEvent(site, c, churn, pinned);
  }
};
} // namespace

// simpleMultiCopy, simpleCallback: one buffer per stream in a set-up loop,
// all freed at the end. The line runs N times; none of it is churn.
TEST(AllocationChurn, SetUpLoopIsNotChurn) {
  Replay r;
  SiteRecord allocSite, freeSite;
  std::vector<std::uintptr_t> buffers;
  for (int i = 0; i < 4; ++i)
    buffers.push_back(r.alloc(allocSite));
  for (std::uintptr_t b : buffers)
    r.release(freeSite, b);
  EXPECT_EQ(allocSite.count(Counter::Calls), 4u);
  EXPECT_EQ(allocSite.count(Counter::Churn), 0u);
  EXPECT_EQ(freeSite.count(Counter::Churn), 0u);
}

// cudaMalloc/cudaFree per iteration: every allocation after the first
// follows a free of the site's memory, and so does every free of it.
TEST(AllocationChurn, AllocAndFreePerIterationIsChurn) {
  Replay r;
  SiteRecord allocSite, freeSite;
  for (int i = 0; i < 10; ++i)
    r.release(freeSite, r.alloc(allocSite));
  EXPECT_EQ(allocSite.count(Counter::Churn), 9u);
  EXPECT_EQ(freeSite.count(Counter::Churn), 9u);
}

// The driver hands back the same address after a free: still churn.
TEST(AllocationChurn, SameAddressAgainIsChurn) {
  Replay r;
  SiteRecord allocSite, freeSite;
  for (int i = 0; i < 5; ++i)
    r.release(freeSite, r.alloc(allocSite, "cudaMalloc_v3020", 0x1000));
  EXPECT_EQ(allocSite.count(Counter::Churn), 4u);
  EXPECT_EQ(freeSite.count(Counter::Churn), 4u);
}

// A set-up phase that runs again (a benchmark's test cases, a solver's
// per-step workspace) churns from its second round on: N buffers allocated,
// all freed, N allocated again. One allocation per round follows the frees
// (HeCBench streamCreateCopyDestroy: 16 rounds of up to 5000 buffers).
TEST(AllocationChurn, RepeatedSetUpChurnsOncePerRound) {
  Replay r;
  SiteRecord allocSite, freeSite;
  for (int round = 0; round < 3; ++round) {
    std::vector<std::uintptr_t> buffers;
    for (int i = 0; i < 4; ++i)
      buffers.push_back(r.alloc(allocSite));
    for (std::uintptr_t b : buffers)
      r.release(freeSite, b);
  }
  EXPECT_EQ(allocSite.count(Counter::Calls), 12u);
  EXPECT_EQ(allocSite.count(Counter::Churn), 2u);
  EXPECT_EQ(freeSite.count(Counter::Churn), 2u);
}

// Another site's free does not make this site's allocations churn, and a
// site that grows a pool (allocates, never frees) does not churn either.
TEST(AllocationChurn, OnlyTheSitesOwnMemoryCounts) {
  Replay r;
  SiteRecord pool, scratch, freeSite;
  for (int i = 0; i < 5; ++i) {
    r.alloc(pool);
    r.release(freeSite, r.alloc(scratch));
  }
  EXPECT_EQ(pool.count(Counter::Churn), 0u);
  EXPECT_EQ(scratch.count(Counter::Churn), 4u);
}

// Frees of memory the probe never saw allocated, failed calls and null
// pointers change nothing.
TEST(AllocationChurn, UnknownFreesAndFailuresAreIgnored) {
  Replay r;
  SiteRecord site, freeSite;
  r.release(freeSite, 0xdead0000);
  r.release(freeSite, 0);
  ApiCall failed;
  failed.traits = classifyApi("cudaMalloc_v3020");
  failed.address = 0x5000;
  failed.result = 2; // cudaErrorMemoryAllocation
  handleMemoryEvent(site, failed, r.churn, r.pinned);
  r.alloc(site);
  EXPECT_EQ(site.count(Counter::Churn), 0u);
  EXPECT_EQ(freeSite.count(Counter::Churn), 0u);
}

// A churning loop that gets a new address every time never fills the
// table: freed entries are removed, not left behind as tombstones.
TEST(AllocationChurn, FreedEntriesLeaveNoTombstones) {
  AllocationChurn churn(16);
  SiteRecord site, freeSite;
  for (std::uintptr_t a = 1; a <= 10000; ++a) {
    churn.allocated(site, a * 256);
    churn.freed(freeSite, a * 256);
  }
  EXPECT_EQ(churn.untracked(), 0u);
  EXPECT_EQ(site.count(Counter::Churn), 9999u);
}

// Many live allocations colliding in a small table: every one is found
// again after others were removed around it (backward-shift deletion).
TEST(AllocationChurn, DeletionKeepsCollidingEntriesReachable) {
  AllocationChurn churn(64);
  SiteRecord site, freeSite;
  for (std::uintptr_t a = 1; a <= 40; ++a)
    churn.allocated(site, a * 4096);
  for (std::uintptr_t a = 1; a <= 40; a += 2)
    EXPECT_FALSE(churn.freed(freeSite, a * 4096));
  EXPECT_EQ(site.ownFreed.load(), 20u);
  for (std::uintptr_t a = 2; a <= 40; a += 2)
    churn.freed(freeSite, a * 4096);
  EXPECT_EQ(site.ownFreed.load(), 40u);
  EXPECT_EQ(churn.untracked(), 0u);
}

// Pinned allocations feed the pinned-range cache, their frees empty it.
TEST(AllocationChurn, PinnedAllocationsAreKnownToTheCopyPath) {
  Replay r;
  SiteRecord site, freeSite;
  std::uintptr_t host = r.alloc(site, "cudaMallocHost_v3020");
  PinnedMemoryTracker::ThreadCache cache;
  EXPECT_EQ(r.pinned.find(host + 100, cache), HostRangeKind::Pinned);
  r.release(freeSite, host, "cudaFreeHost_v3020");
  EXPECT_EQ(r.pinned.find(host + 100, cache), HostRangeKind::None);
  std::uintptr_t managed = r.alloc(site, "cudaMallocManaged_v6000");
  EXPECT_EQ(r.pinned.find(managed, cache), HostRangeKind::Managed);
  std::uintptr_t registered = r.alloc(site, "cudaHostRegister_v4000");
  EXPECT_EQ(r.pinned.find(registered + 4095, cache), HostRangeKind::Pinned);
  EXPECT_EQ(r.pinned.find(registered + 4096, cache), HostRangeKind::None);
  r.release(freeSite, registered, "cudaHostUnregister_v4000");
  EXPECT_EQ(r.pinned.find(registered, cache), HostRangeKind::None);
}

// cuda-samples' simpleCallback: one worker thread per workload allocates its
// buffers once at the same site; other threads free them as workloads finish,
// while later workers still allocate. No thread came back to the site after
// its own memory was freed: no churn.
TEST(AllocationChurn, WorkersThatEachAllocateOnceDoNotChurn) {
  AllocationChurn churn(64);
  SiteRecord site, freeSite;
  for (std::uint32_t worker = 1; worker <= 8; ++worker) {
    churn.allocated(site, 0x1000 * worker, worker);
    if (worker > 2)
      churn.freed(freeSite, 0x1000 * (worker - 2)); // an earlier workload ends
  }
  EXPECT_EQ(site.count(Counter::Churn), 0u);
  EXPECT_EQ(freeSite.count(Counter::Churn), 0u);
  // A pool thread that runs a second task at the site does churn, whoever
  // freed its first buffer.
  churn.allocated(site, 0x90000, 3);
  EXPECT_EQ(site.count(Counter::Churn), 1u);
}
