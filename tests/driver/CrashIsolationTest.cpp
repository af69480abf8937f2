// runIsolated: work that crashes (stack overflow, abort, LLVM fatal error)
// is reported, and the process and later work go on.
#include "analyzer/driver/CrashIsolation.h"

#include "llvm/Support/ErrorHandling.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <stdexcept>

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
  EXPECT_NE(crash->what.find("Segmentation fault"), std::string::npos) << crash->what;
  EXPECT_NE(crash->what.find("stack"), std::string::npos) << crash->what;
  EXPECT_FALSE(crash->internal()) << "outside any streamlint step: clang's";
}

TEST(CrashIsolation, AbortIsCaught) {
  auto crash = runIsolated([] { abort(); });
  ASSERT_TRUE(crash.has_value());
  EXPECT_NE(crash->what.find("Abort"), std::string::npos) << crash->what;
}

TEST(CrashIsolation, LlvmFatalErrorIsCaught) {
  auto crash = runIsolated([] { llvm::report_fatal_error("made up for the test"); });
  ASSERT_TRUE(crash.has_value());
  EXPECT_NE(crash->what.find("made up for the test"), std::string::npos) << crash->what;
}

/// A failure in streamlint's own step is an internal error naming the step;
/// one in clang's work inside it is clang's.
TEST(CrashIsolation, StreamlintStepsAreToldFromClangWork) {
  auto crash = runIsolated([] {
    StreamlintStep step("running the checks");
    abort();
  });
  ASSERT_TRUE(crash.has_value());
  EXPECT_TRUE(crash->internal());
  EXPECT_EQ(crash->step, "running the checks");
  crash = runIsolated([] {
    StreamlintStep step("preparing the translation unit");
    ClangWork parsing;
    recurseForever(0);
  });
  ASSERT_TRUE(crash.has_value());
  EXPECT_FALSE(crash->internal()) << crash->step;
  crash = runIsolated([] {
    StreamlintStep step("preparing the translation unit");
    { ClangWork parsing; }
    llvm::report_fatal_error("IO failure on output stream");
  });
  ASSERT_TRUE(crash.has_value());
  EXPECT_EQ(crash->step, "preparing the translation unit");
  EXPECT_EQ(crash->what, "LLVM fatal error: IO failure on output stream");
}

/// An exception never takes the process down: it is an internal error with
/// its message, in the innermost step it left.
TEST(CrashIsolation, ExceptionsAreInternalErrorsWithTheirMessage) {
  auto failure = runIsolated([] {
    StreamlintStep outer("preparing the translation unit");
    StreamlintStep inner("storing the index entry");
    throw std::runtime_error("type_error.316: invalid UTF-8 byte");
  });
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->step, "storing the index entry");
  EXPECT_EQ(failure->what, "uncaught exception: type_error.316: invalid UTF-8 byte");
  failure = runIsolated([] { throw StepFailure("running the checks", "bad"); });
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->step, "running the checks");
  // One that reaches std::terminate (a noexcept function) keeps its message.
  failure = runIsolated([]() noexcept {
    struct Thrower {
      static void go() { throw std::runtime_error("from a noexcept frame"); }
    };
    Thrower::go();
  });
  ASSERT_TRUE(failure.has_value());
  EXPECT_TRUE(failure->internal());
  EXPECT_EQ(failure->what, "uncaught exception: from a noexcept frame");
}

TEST(CrashIsolation, WorkAfterACrashStillRuns) {
  ASSERT_TRUE(runIsolated([] { recurseForever(0); }).has_value());
  int result = 0;
  EXPECT_EQ(runIsolated([&] { result = 7; }), std::nullopt);
  EXPECT_EQ(result, 7);
}

} // namespace
} // namespace streamlint
