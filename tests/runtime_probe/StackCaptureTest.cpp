#include "StackCapture.h"

#include <gtest/gtest.h>

#include <vector>

using namespace streamlint::probe;

namespace {

struct Captured {
  std::vector<std::uintptr_t> pcs;
  std::uintptr_t level1ReturnAddress = 0; // where level1 returns to
};

__attribute__((noinline)) Captured level2(Unwinder unwinder, unsigned max,
                                          unsigned appFrames,
                                          const CudaModules &modules,
                                          bool appOnly, unsigned *walkDepth) {
  Captured c;
  c.pcs.resize(kMaxCapture);
  unsigned n = captureStack(c.pcs.data(), max, appFrames, modules, unwinder,
                            appOnly, walkDepth);
  c.pcs.resize(n);
  asm volatile("" ::: "memory"); // keep the call above out of tail position
  return c;
}

__attribute__((noinline)) Captured level1(Unwinder unwinder, unsigned max,
                                          unsigned appFrames,
                                          const CudaModules &modules,
                                          bool appOnly = false,
                                          unsigned *walkDepth = nullptr) {
  Captured c = level2(unwinder, max, appFrames, modules, appOnly, walkDepth);
  c.level1ReturnAddress = reinterpret_cast<std::uintptr_t>(__builtin_return_address(0));
  asm volatile("" ::: "memory");
  return c;
}

} // namespace

TEST(StackCapture, ParsesUnwinderNames) {
  struct Case {
    const char *name;
    bool ok;
    Unwinder want;
  } cases[] = {{"libunwind", true, Unwinder::Libunwind},
               {"libgcc", true, Unwinder::Libgcc},
               {"none", true, Unwinder::None},
               {"LIBUNWIND", false, Unwinder::Libunwind},
               {"", false, Unwinder::Libunwind},
               {nullptr, false, Unwinder::Libunwind}};
  for (const Case &c : cases) {
    Unwinder got = Unwinder::Libunwind;
    EXPECT_EQ(parseUnwinder(c.name, got), c.ok) << (c.name ? c.name : "null");
    EXPECT_EQ(got, c.want) << (c.name ? c.name : "null");
    if (c.ok)
      EXPECT_STREQ(unwinderName(got), c.name);
  }
}

// The probe keys call sites by these frames: libunwind (the default) must
// produce exactly what libgcc's unwinder produces, from the caller on.
TEST(StackCapture, UnwindersAgreeFrameByFrame) {
  ASSERT_EQ(initStackCapture(Unwinder::Libunwind), Unwinder::Libunwind)
      << "libunwind.so.8 missing (apt-get install libunwind8)";
  Captured a = level1(Unwinder::Libunwind, kMaxCapture, 0, {});
  Captured b = level1(Unwinder::Libgcc, kMaxCapture, 0, {});
  ASSERT_GE(a.pcs.size(), 3u); // level2, level1, the test body at least
  ASSERT_EQ(a.pcs.size(), b.pcs.size());
  // Frames 0 (in level2) and 1 (in level1) sit at the same instruction for
  // both calls; the test body calls level1 twice, so frame 2 differs.
  EXPECT_EQ(a.pcs[0], b.pcs[0]);
  EXPECT_EQ(a.pcs[1], b.pcs[1]);
  for (std::size_t i = 3; i < a.pcs.size(); ++i)
    EXPECT_EQ(a.pcs[i], b.pcs[i]) << "frame " << i;
  EXPECT_EQ(a.pcs[2], a.level1ReturnAddress);
  EXPECT_EQ(b.pcs[2], b.level1ReturnAddress);
}

// Frames inside the CUDA/probe modules do not count towards the app frames
// kept; `max` bounds everything; None captures nothing.
TEST(StackCapture, LimitsAppFramesAndTotal) {
  ASSERT_EQ(initStackCapture(Unwinder::Libunwind), Unwinder::Libunwind);
  Captured full = level1(Unwinder::Libgcc, kMaxCapture, 0, {});
  ASSERT_GE(full.pcs.size(), 4u);
  CudaModules firstIsCuda;
  firstIsCuda.driver = {full.pcs[0], full.pcs[0] + 1}; // level2's frame
  for (Unwinder u : {Unwinder::Libunwind, Unwinder::Libgcc}) {
    SCOPED_TRACE(unwinderName(u));
    EXPECT_EQ(level1(u, kMaxCapture, 2, {}).pcs.size(), 2u);
    EXPECT_EQ(level1(u, kMaxCapture, 2, firstIsCuda).pcs.size(), 3u);
    EXPECT_EQ(level1(u, 1, 0, {}).pcs.size(), 1u);
    EXPECT_EQ(level1(u, kMaxCapture, 0, {}).pcs.size(), full.pcs.size());
  }
  EXPECT_EQ(level1(Unwinder::None, kMaxCapture, 0, {}).pcs.size(), 0u);
}

// appOnly leaves CUDA/probe frames out; a per-thread depth hint, right,
// stale or far too small, never changes the result.
TEST(StackCapture, AppOnlyAndDepthHintKeepTheSameAppFrames) {
  ASSERT_EQ(initStackCapture(Unwinder::Libunwind), Unwinder::Libunwind);
  Captured full = level1(Unwinder::Libgcc, kMaxCapture, 0, {});
  ASSERT_GE(full.pcs.size(), 4u);
  CudaModules firstIsCuda;
  firstIsCuda.driver = {full.pcs[0], full.pcs[0] + 1}; // level2's frame
  for (Unwinder u : {Unwinder::Libunwind, Unwinder::Libgcc}) {
    SCOPED_TRACE(unwinderName(u));
    Captured app = level1(u, kMaxCapture, 2, firstIsCuda, /*appOnly=*/true);
    ASSERT_EQ(app.pcs.size(), 2u);
    EXPECT_EQ(app.pcs[0], full.pcs[1]); // level1's frame, level2's dropped
    EXPECT_EQ(app.pcs[1], app.level1ReturnAddress);
    for (unsigned hint : {0u, 1u, 3u, 100u}) {
      SCOPED_TRACE(hint);
      unsigned depth = hint;
      Captured hinted = level1(u, kMaxCapture, 3, {}, false, &depth);
      Captured plain = level1(u, kMaxCapture, 3, {});
      ASSERT_EQ(hinted.pcs.size(), 3u);
      EXPECT_EQ(hinted.pcs[0], plain.pcs[0]);
      EXPECT_EQ(hinted.pcs[1], plain.pcs[1]);
      if (u == Unwinder::Libunwind)
        EXPECT_GE(depth, 3u); // learned how deep three frames lie
    }
  }
}

TEST(StackCapture, DriverFrameBelowTheAppMeansTheDriversThread) {
  CudaModules m;
  m.driver = {0x1000, 0x2000};
  m.probe = {0x3000, 0x4000};
  struct Case {
    std::vector<std::uintptr_t> pcs;
    bool want;
  } cases[] = {{{0x3000, 0x1100, 0x9000, 0x9100}, false}, // app thread
               {{0x3000, 0x1100, 0x9000, 0x1200}, true},  // callback thread
               {{0x3000, 0x1100}, false},                 // no app frame
               {{}, false}};
  for (const Case &c : cases)
    EXPECT_EQ(isDriverOwnedStack(c.pcs.data(), c.pcs.size(), m), c.want);
}
