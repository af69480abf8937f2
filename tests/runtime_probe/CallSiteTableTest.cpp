#include "CallSiteTable.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace streamlint::probe;

TEST(CallSiteTable, SameStackSameRecord) {
  CallSiteTable table(64);
  std::uintptr_t a[] = {0x10, 0x20, 0x30}, b[] = {0x10, 0x20, 0x31};
  std::uint64_t ka = hashStack(a, 3, "x"), kb = hashStack(b, 3, "x");
  EXPECT_NE(ka, kb);
  SiteRecord *ra = table.acquire(ka, "x", 0, a, 3);
  ASSERT_NE(ra, nullptr);
  EXPECT_EQ(table.acquire(ka, "x", 0, a, 3), ra);
  EXPECT_NE(table.acquire(kb, "x", 0, b, 3), ra);
  EXPECT_EQ(table.usedSites(), 2u);
  EXPECT_EQ(ra->frameCount, 3u);
  EXPECT_EQ(ra->frames[2], 0x30u);
}

TEST(CallSiteTable, FullTableDropsAndCounts) {
  CallSiteTable table(16);
  std::uintptr_t pc = 0;
  unsigned stored = 0;
  for (std::uintptr_t i = 1; i <= 40; ++i) {
    pc = i;
    if (table.acquire(hashStack(&pc, 1, "x"), "x", 0, &pc, 1))
      ++stored;
  }
  EXPECT_EQ(stored, 16u);
  EXPECT_EQ(table.droppedCalls(), 24u);
  unsigned visited = 0;
  table.forEach([&](const SiteRecord &) { ++visited; });
  EXPECT_EQ(visited, 16u);
}

TEST(CallSiteTable, ConcurrentRecordingLosesNothing) {
  CallSiteTable table(1024);
  constexpr int kThreads = 4, kCalls = 20000, kSites = 50;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < kCalls; ++i) {
        std::uintptr_t pc = 0x1000 + i % kSites;
        if (SiteRecord *r = table.acquire(hashStack(&pc, 1, "x"), "x", 0, &pc, 1))
          r->add(Counter::Calls, 1);
      }
    });
  for (auto &t : threads)
    t.join();
  std::uint64_t total = 0;
  table.forEach([&](const SiteRecord &r) { total += r.count(Counter::Calls); });
  EXPECT_EQ(table.usedSites(), std::size_t(kSites));
  EXPECT_EQ(total, std::uint64_t(kThreads) * kCalls);
  EXPECT_EQ(table.droppedCalls(), 0u);
}
