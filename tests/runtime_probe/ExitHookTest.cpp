// The probe writes its trace in processes that end with _exit (Python's
// os._exit in every multiprocessing worker): the executable's _exit import
// is pointed at a function that flushes first.
#include "ExitHook.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fcntl.h>
#include <string>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace streamlint::probe;

namespace {
std::string gMarker;
void writeMarker() {
  int fd = ::open(gMarker.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    (void)!::write(fd, "flushed", 7);
    ::close(fd);
  }
}
} // namespace

TEST(ExitHook, ExitImportFlushesThenExitsWithItsStatus) {
  gMarker = ::testing::TempDir() + "/exit-hook-marker";
  std::remove(gMarker.c_str());
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    unsigned hooked = hookExitImports(writeMarker);
    _exit(hooked > 0 ? 7 : 99); // through the executable's import
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 7) << "99: no _exit import was found to hook";
  EXPECT_EQ(::access(gMarker.c_str(), F_OK), 0) << "the flush did not run";
}

// A process other than the one that hooked (a vfork child shares the
// hooking process's memory) exits without flushing.
TEST(ExitHook, OnlyTheHookingProcessFlushes) {
  gMarker = ::testing::TempDir() + "/exit-hook-marker-2";
  std::remove(gMarker.c_str());
  pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    hookExitImports(writeMarker);
    pid_t grandchild = fork(); // inherits the hook, is another process
    if (grandchild == 0)
      _exit(5);
    int status = 0;
    waitpid(grandchild, &status, 0);
    bool flushedByGrandchild = ::access(gMarker.c_str(), F_OK) == 0;
    ::syscall(SYS_exit_group, flushedByGrandchild ? 1 : WEXITSTATUS(status));
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 5);
}
