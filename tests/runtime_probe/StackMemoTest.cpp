#include "StackMemo.h"

#include <gtest/gtest.h>

#include <csignal>
#include <memory>

using namespace streamlint::probe;

namespace {

constexpr unsigned kKept = 20;
const char *const kApi = "cudaMemcpyAsync"; // the salt: a pointer, as CUPTI's
const char *const kOtherApi = "cudaLaunchKernel";

struct Fixture {
  explicit Fixture(std::size_t capacity = 1024) : table(capacity) {}
  CallSiteTable table;
  std::unique_ptr<StackMemo> memo = std::make_unique<StackMemo>();
  Unwinder unwinder = initStackCapture(Unwinder::Libunwind);
  unsigned walkDepth = 0;
};

// The probe's switchboard: the frame that calls captureSite.
__attribute__((noinline)) SiteRecord *site(Fixture &f, bool memo, const char *api = kApi) {
  SiteRecord *s = captureSite(*f.memo, memo, f.table, api, 0, kKept, {}, f.unwinder,
                              &f.walkDepth);
  asm volatile("" ::: "memory");
  return s;
}

// Two callers with the same frame size, called from the same place: the
// memo sees the same anchor and API for both and must tell them apart by
// the return addresses on the stack.
__attribute__((noinline)) SiteRecord *callerA(Fixture &f, bool memo, const char *api = kApi) {
  SiteRecord *s = site(f, memo, api);
  asm volatile("" ::: "memory");
  return s;
}
__attribute__((noinline)) SiteRecord *callerB(Fixture &f, bool memo, const char *api = kApi) {
  SiteRecord *s = site(f, memo, api);
  asm volatile("" ::: "memory");
  return s;
}
__attribute__((noinline)) SiteRecord *viaHelper(Fixture &f, bool memo) {
  SiteRecord *s = callerA(f, memo);
  asm volatile("" ::: "memory");
  return s;
}

__attribute__((noinline)) SiteRecord *recurse(Fixture &f, int depth, bool memo,
                                           const char *api = kApi) {
  SiteRecord *s = depth == 0 ? site(f, memo, api) : recurse(f, depth - 1, memo, api);
  asm volatile("" ::: "memory");
  return s;
}

__attribute__((noinline)) SiteRecord *callSite(Fixture &f, int which, bool memo) {
  SiteRecord *s = which == 0 ? callerA(f, memo) : callerB(f, memo);
  asm volatile("" ::: "memory");
  return s;
}

// The frames kept reach into the test body: calls compared with each other
// must come from one call instruction there, hence these loops over `at`,
// whose trip counts the compiler must not know (an unrolled loop is several
// call instructions).
int opaque(int n) {
  asm volatile("" : "+r"(n));
  return n;
}
enum Path { PathA, PathB, PathALaunch, PathHelper, PathRecurse3, PathRecurse5, kPaths };
__attribute__((noinline)) SiteRecord *at(Fixture &f, int path, bool memo) {
  SiteRecord *s = nullptr;
  switch (path) {
  case PathA: s = callerA(f, memo); break;
  case PathB: s = callerB(f, memo); break;
  case PathALaunch: s = callerA(f, memo, kOtherApi); break;
  case PathHelper: s = viaHelper(f, memo); break;
  case PathRecurse3: s = recurse(f, 3, memo); break;
  case PathRecurse5: s = recurse(f, 5, memo); break;
  }
  asm volatile("" ::: "memory");
  return s;
}

} // namespace

#if defined(__x86_64__)
// The memo finds the same record the walk finds, and walks once per site.
TEST(StackMemo, RepeatedCallsHitAndMatchTheWalk) {
  Fixture f;
  SiteRecord *got[2] = {};
  for (int i = 0; i < opaque(10); ++i)
    for (int m = 0; m < opaque(2); ++m) {
      bool memo = m == 1;
      SiteRecord *s = at(f, PathA, memo);
      ASSERT_NE(s, nullptr);
      ASSERT_TRUE(!got[memo] || got[memo] == s) << i;
      got[memo] = s;
    }
  EXPECT_EQ(got[true], got[false]); // same frames, same key
  EXPECT_EQ(f.memo->misses, 1u);
  EXPECT_EQ(f.memo->hits, 9u);
  EXPECT_EQ(f.table.usedSites(), 1u);
  EXPECT_GE(got[true]->frameCount, 3u); // site, callerA, at, ...
}

// Both unwinders' walks (from captureSite's caller on) key the site as the
// memo's walk does.
TEST(StackMemo, EveryUnwinderFindsTheMemosSite) {
  Fixture f;
  Unwinder loaded = f.unwinder;
  SiteRecord *got[3] = {};
  for (int i = 0; i < opaque(3); ++i) {
    f.unwinder = i == 2 ? Unwinder::Libgcc : loaded;
    got[i] = at(f, PathHelper, i == 0);
  }
  EXPECT_EQ(got[0], got[1]);
  EXPECT_EQ(got[0], got[2]);
  EXPECT_EQ(f.memo->misses, 1u);
}

// Two lines of one function at the same stack depth (callerA and callerB
// called from `at`: same anchor, same API), a different API, a helper in
// between, recursion: each its own site, memo or walk, every time.
TEST(StackMemo, EachPathIsItsOwnSite) {
  Fixture f;
  SiteRecord *got[kPaths] = {};
  for (int round = 0; round < opaque(4); ++round)
    for (int path = 0; path < opaque(kPaths); ++path)
      for (int m = 0; m < opaque(2); ++m) {
        bool memo = m == 0;
        SiteRecord *s = at(f, path, memo);
        ASSERT_NE(s, nullptr);
        if (!got[path])
          got[path] = s;
        EXPECT_EQ(s, got[path]) << "path " << path << " round " << round << " memo " << memo;
      }
  for (int a = 0; a < kPaths; ++a)
    for (int b = a + 1; b < kPaths; ++b)
      EXPECT_NE(got[a], got[b]) << a << " " << b;
  EXPECT_EQ(f.table.usedSites(), std::size_t(kPaths));
  EXPECT_EQ(f.memo->misses, std::uint64_t(kPaths)); // one walk per path
}

// The same frames up to a caller that differs further out (two lines of the
// test body): found different by the slot of that return address.
TEST(StackMemo, DifferentOuterCallerIsNoticed) {
  Fixture f;
  SiteRecord *x = nullptr, *y = nullptr;
  for (int i = 0; i < opaque(3); ++i) {
    SiteRecord *first = callSite(f, 0, true);
    SiteRecord *second = callSite(f, 0, true);
    if (i == 0) {
      x = first;
      y = second;
    }
    EXPECT_EQ(first, x);
    EXPECT_EQ(second, y);
  }
  EXPECT_NE(x, y);
  EXPECT_EQ(f.memo->misses, 2u);
}

// More stacks than all sets hold (depths within the frames kept, times
// APIs): every answer stays right; replaced entries walk again.
TEST(StackMemo, ManyStacksStayCorrect) {
  Fixture f;
  static const char kApis[8][16] = {"a", "b", "c", "d", "e", "f", "g", "h"};
  constexpr int kDepths = 10;
  SiteRecord *sites[8][kDepths] = {};
  for (int round = 0; round < opaque(2); ++round)
    for (int a = 0; a < opaque(8); ++a)
      for (int d = 0; d < opaque(kDepths); ++d)
        for (int m = 0; m < opaque(2); ++m) {
        bool memo = m == 0;
          SiteRecord *s = recurse(f, d, memo, kApis[a]);
          if (!sites[a][d])
            sites[a][d] = s;
          EXPECT_EQ(s, sites[a][d]) << a << " " << d;
        }
  EXPECT_EQ(f.table.usedSites(), std::size_t(8 * kDepths));
  EXPECT_GT(f.memo->misses, std::uint64_t(8 * kDepths)); // entries were replaced
}

// A signal frame's resumption address is not where a call would keep its
// return address: calls made in a signal handler are walked each time (and
// count as misses), never taken from an entry; walk and memo still agree.
namespace {
Fixture *gSignalFixture = nullptr;
SiteRecord *gSignalSites[2] = {};
void onSignal(int) {
  for (int m = 0; m < opaque(2); ++m)
    gSignalSites[m] = at(*gSignalFixture, PathA, m == 0);
}
} // namespace

TEST(StackMemo, SignalFramesAreWalkedNotMemoized) {
  Fixture f;
  gSignalFixture = &f;
  struct sigaction action {}, previous {};
  action.sa_handler = onSignal;
  sigemptyset(&action.sa_mask);
  ASSERT_EQ(sigaction(SIGUSR1, &action, &previous), 0);
  SiteRecord *first[2] = {};
  for (int i = 0; i < opaque(3); ++i) {
    raise(SIGUSR1);
    EXPECT_EQ(gSignalSites[0], gSignalSites[1]);
    if (i == 0)
      first[0] = gSignalSites[0];
    EXPECT_EQ(gSignalSites[0], first[0]);
  }
  sigaction(SIGUSR1, &previous, nullptr);
  EXPECT_EQ(f.memo->hits, 0u);
  EXPECT_EQ(f.memo->misses, 3u);
}

TEST(StackMemo, StandsAsideWhileMissing) {
  StackMemo memo;
  for (unsigned i = 0; i < StackMemo::kWindow; ++i)
    memo.noteLookup(false);
  EXPECT_FALSE(memo.active());
  for (unsigned i = 1; i < StackMemo::kOffCalls; ++i)
    ASSERT_FALSE(memo.active());
  EXPECT_TRUE(memo.active());
  EXPECT_EQ(memo.bypassed, StackMemo::kOffCalls);
  // Mostly hits: it stays on.
  for (unsigned i = 0; i < StackMemo::kWindow; ++i)
    memo.noteLookup(i % 16 != 0);
  EXPECT_TRUE(memo.active());
}
#endif

// Off (STREAMLINT_PROBE_STACK_MEMO=0) or with no unwinder, it never looks.
TEST(StackMemo, OffOrWithoutUnwinderItIsNotUsed) {
  Fixture f;
  for (Unwinder unwinder : {f.unwinder, Unwinder::None})
    for (int m = 0; m < opaque(2); ++m) {
      bool memo = m == 1;
      f.unwinder = unwinder;
      SiteRecord *s = at(f, PathA, memo && unwinder == Unwinder::None);
      ASSERT_NE(s, nullptr);
      if (unwinder == Unwinder::None)
        EXPECT_EQ(s->frameCount, 0u);
    }
  EXPECT_EQ(f.memo->hits + f.memo->misses, 0u);
}

// A full table: the drop is counted on every call, memo or not.
TEST(StackMemo, FullTableDropsEveryCall) {
  Fixture f(16);
  for (std::uint64_t k = 1; k <= 16; ++k)
    ASSERT_NE(f.table.acquire(k * 0x1000001, "x", 0, nullptr, 0), nullptr);
  for (int i = 0; i < opaque(3); ++i)
    EXPECT_EQ(callerA(f, true), nullptr);
  EXPECT_EQ(callerA(f, false), nullptr);
  EXPECT_EQ(f.table.droppedCalls(), 4u);
}
