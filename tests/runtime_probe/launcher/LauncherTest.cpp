// The launcher on programs without CUDA: it must pass the exit status,
// output and death by signal through, and still write a (empty) trace.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <spawn.h>
#include <sys/wait.h>
#include <vector>

extern char **environ;

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

/// Runs the launcher directly (no shell in between, which would turn a
/// death by signal into exit status 128+N) and returns its wait status.
int spawn(const std::vector<std::string> &args) {
  std::vector<char *> argv{const_cast<char *>(LAUNCHER_BINARY)};
  for (const std::string &arg : args)
    argv.push_back(const_cast<char *>(arg.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawn(&pid, LAUNCHER_BINARY, nullptr, nullptr, argv.data(), environ) != 0)
    return -1;
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

TEST(Launcher, DiesOfTheProgramsSignal) {
  int status = spawn({"-o", tmp("l2.trace"), "--", "sh", "-c", "kill -TERM $$"});
  ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status;
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  // A program that merely exits 143 (= 128 + SIGTERM) is not a signal death.
  status = spawn({"-o", tmp("l2b.trace"), "--", "sh", "-c", "exit 143"});
  ASSERT_TRUE(WIFEXITED(status)) << "status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 143);
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
