// The launcher on programs without CUDA: it must pass the exit status,
// output and death by signal through, and still write a (empty) trace.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>

namespace {
std::string tmp(const char *name) { return ::testing::TempDir() + "/" + name; }
int run(const std::string &args) {
  return std::system((std::string(LAUNCHER_BINARY) + " " + args).c_str());
}
std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
} // namespace

TEST(Launcher, PassesExitStatusAndOutputThrough) {
  std::string trace = tmp("l1.trace"), out = tmp("l1.out");
  int status = run("-o " + trace + " -- sh -c 'echo hello; exit 7' >" + out + " 2>/dev/null");
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7);
  EXPECT_EQ(slurp(out), "hello\n");
  std::string t = slurp(trace);
  EXPECT_NE(t.find("\"exit_status\": 7"), std::string::npos) << t;
  EXPECT_NE(t.find("\"processes\": 0"), std::string::npos) << t;
}

TEST(Launcher, DiesOfTheProgramsSignal) {
  int status = run("-o " + tmp("l2.trace") + " -- sh -c 'kill -TERM $$' 2>/dev/null");
  // system() runs it through sh, which reports a child's signal as 128+N.
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
}

TEST(Launcher, ReportsAMissingProgram) {
  int status = run("-o " + tmp("l3.trace") + " -- /nonexistent/program 2>/dev/null");
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 127);
}

TEST(Launcher, UsageErrorsExitTwo) {
  int status = run("--bogus 2>/dev/null");
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 2);
}
