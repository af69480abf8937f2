// The launcher on programs without CUDA: it must pass the exit status,
// output and death by signal through, and still write a (empty) trace.
#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <pty.h>
#include <sstream>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
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

int exitCode(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

TEST(Launcher, ReportsAMissingProgram) {
  int status = run("-o " + tmp("l3.trace") + " -- /nonexistent/program 2>/dev/null");
  EXPECT_EQ(exitCode(status), 127);
}

/// As a shell does: 127 for a command not found, 126 for one found but not
/// executable (a file without x bits, a directory).
TEST(Launcher, ReportsAProgramThatCannotBeExecutedAs126) {
  std::string script = tmp("l3b.sh");
  std::ofstream(script) << "echo never\n";
  chmod(script.c_str(), 0644);
  EXPECT_EQ(exitCode(run("-o " + tmp("l3b.trace") + " -- " + script + " 2>/dev/null")), 126);
  EXPECT_EQ(exitCode(run("-o " + tmp("l3c.trace") + " -- /tmp 2>/dev/null")), 126);
}

TEST(Launcher, UsageErrorsExitTwo) {
  EXPECT_EQ(exitCode(run("--bogus 2>/dev/null")), 2);
}

TEST(Launcher, OptionWithoutValueSaysSo) {
  std::string err = tmp("l4.err");
  EXPECT_EQ(exitCode(run("-o 2>" + err)), 2);
  EXPECT_NE(slurp(err).find("-o needs a value"), std::string::npos) << slurp(err);
  EXPECT_EQ(exitCode(run("--symbolize 2>" + err)), 2);
  EXPECT_NE(slurp(err).find("--symbolize needs the raw trace files"), std::string::npos)
      << slurp(err);
}

/// A trace that cannot be written is said before the program runs, and the
/// launcher fails: a CI step must not pass without its trace.
TEST(Launcher, UnwritableTraceFailsBeforeTheProgramRuns) {
  std::string marker = tmp("l5.ran"), err = tmp("l5.err");
  std::remove(marker.c_str());
  int status = run("-o /nonexistent-dir/run.trace -- sh -c 'touch " + marker + "' 2>" + err);
  EXPECT_EQ(exitCode(status), 2);
  EXPECT_NE(slurp(err).find("cannot write the trace to /nonexistent-dir/run.trace"),
            std::string::npos) << slurp(err);
  EXPECT_FALSE(std::ifstream(marker).good()) << "the program ran";
}

TEST(Launcher, SymbolizingAMissingRawTraceFails) {
  std::string trace = tmp("l6.trace"), err = tmp("l6.err");
  std::remove(trace.c_str());
  EXPECT_EQ(exitCode(run("-o " + trace + " --symbolize /nonexistent/probe-1.raw 2>" + err)), 2);
  EXPECT_NE(slurp(err).find("cannot read /nonexistent/probe-1.raw: no such file"),
            std::string::npos) << slurp(err);
  EXPECT_EQ(slurp(trace), "") << "an empty trace was written";
}

/// Runs the launcher on a new pseudo-terminal (as a user at a shell does),
/// types Ctrl-C once the program is ready, and returns the program's exit
/// status: the number of SIGINTs it received.
int sigintsAfterOneCtrlC() {
  int master = -1;
  pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) {
    std::string trace = tmp("l7.trace");
    execl(LAUNCHER_BINARY, LAUNCHER_BINARY, "-o", trace.c_str(), "--",
          SIGNAL_COUNTER_BINARY, static_cast<char *>(nullptr));
    _exit(99);
  }
  if (pid < 0)
    return -1;
  std::string seen;
  char buffer[256];
  while (seen.find("ready") == std::string::npos) {
    ssize_t n = read(master, buffer, sizeof buffer);
    if (n <= 0)
      break;
    seen.append(buffer, n);
  }
  (void)!write(master, "\x03", 1); // the terminal's VINTR character
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  close(master);
  return exitCode(status);
}

/// Ctrl-C reaches the program once: the terminal signals the whole
/// foreground process group, so the launcher must not pass it on too.
TEST(Launcher, CtrlCReachesTheProgramOnce) {
  for (int attempt = 0; attempt < 3; ++attempt) // the double delivery is a race
    EXPECT_EQ(sigintsAfterOneCtrlC(), 1) << "attempt " << attempt;
}

/// A SIGINT sent to the launcher alone (kill) is passed on, once.
TEST(Launcher, ForwardsASignalSentToItOnce) {
  std::string out = tmp("l8.out");
  int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fd, 1);
  std::string trace = tmp("l8.trace");
  const char *argv[] = {LAUNCHER_BINARY, "-o", trace.c_str(), "--",
                        SIGNAL_COUNTER_BINARY, nullptr};
  pid_t pid = 0;
  ASSERT_EQ(posix_spawn(&pid, LAUNCHER_BINARY, &actions, nullptr,
                        const_cast<char **>(argv), environ), 0);
  posix_spawn_file_actions_destroy(&actions);
  close(fd);
  // Up to a minute: a loaded machine may take seconds to start the two.
  for (int tick = 0; tick < 6000 && slurp(out).find("ready") == std::string::npos; ++tick)
    usleep(10000);
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_EQ(exitCode(status), 1);
}
