// runIsolated: work that crashes (stack overflow, abort, LLVM fatal error)
// is reported, and the process and later work go on.
#include "analyzer/driver/CrashIsolation.h"

#include "llvm/Support/ErrorHandling.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace streamlint {
namespace {

// Recurses until the stack is gone; the volatile frame and the use after the
// call keep the compiler from turning it into a loop.
int recurseForever(int depth) {
  volatile char frame[512];
  frame[0] = static_cast<char>(depth);
  return recurseForever(depth + 1) + frame[0];
}

TEST(CrashIsolation, FinishedWorkReportsNothing) {
  int result = 0;
  EXPECT_EQ(runIsolated([&] { result = 42; }), std::nullopt);
  EXPECT_EQ(result, 42);
}

TEST(CrashIsolation, RunsWithALargeStack) {
  // 16 MiB of frames: more than a default 8 MiB thread has.
  std::function<int(int)> deep = [&](int n) -> int {
    volatile char frame[4096];
    frame[0] = 1;
    return n == 0 ? 0 : deep(n - 1) + frame[0];
  };
  int result = 0;
  EXPECT_EQ(runIsolated([&] { result = deep(4096); }), std::nullopt);
  EXPECT_EQ(result, 4096);
}

TEST(CrashIsolation, StackOverflowIsCaught) {
  auto crash = runIsolated([] { recurseForever(0); });
  ASSERT_TRUE(crash.has_value());
  EXPECT_NE(crash->find("Segmentation fault"), std::string::npos) << *crash;
  EXPECT_NE(crash->find("stack"), std::string::npos) << *crash;
}

TEST(CrashIsolation, AbortIsCaught) {
  auto crash = runIsolated([] { abort(); });
  ASSERT_TRUE(crash.has_value());
  EXPECT_NE(crash->find("Abort"), std::string::npos) << *crash;
}

TEST(CrashIsolation, LlvmFatalErrorIsCaught) {
  auto crash = runIsolated([] { llvm::report_fatal_error("made up for the test"); });
  ASSERT_TRUE(crash.has_value());
  EXPECT_NE(crash->find("made up for the test"), std::string::npos) << *crash;
}

TEST(CrashIsolation, WorkAfterACrashStillRuns) {
  ASSERT_TRUE(runIsolated([] { recurseForever(0); }).has_value());
  int result = 0;
  EXPECT_EQ(runIsolated([&] { result = 7; }), std::nullopt);
  EXPECT_EQ(result, 7);
}

} // namespace
} // namespace streamlint
