#include "RawTrace.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace streamlint::probe;

TEST(RawTrace, RoundTripsThroughAFile) {
  CallSiteTable table(16);
  std::uintptr_t pcs[] = {0x401000, 0x7f0000001234};
  SiteRecord *s = table.acquire(hashStack(pcs, 2, "a"), "cudaMemcpyAsync_v3020", 6, pcs, 2);
  s->calls = 5;
  s->hostNs = 12345;
  s->bytes = 1 << 20;
  s->pageable = 4;
  s->pinned = 1;
  s->callbackThreadCalls = 2;
  s->callbackThreadErrors = 2;
  s->lastCallbackThreadError = 800;
  ModuleMap modules;
  modules.add(0x400000, 0x500000, 0, "/bin/my app"); // a space in the path
  char path[] = "/tmp/rawtraceXXXXXX";
  int fd = mkstemp(path);
  ASSERT_TRUE(writeRawTrace(fd, table, modules, 42, 7));
  close(fd);

  std::ifstream in(path);
  RawTrace trace;
  std::string error;
  ASSERT_TRUE(readRawTrace(in, trace, error)) << error;
  std::remove(path);
  EXPECT_TRUE(trace.complete);
  EXPECT_EQ(trace.pid, 42);
  EXPECT_EQ(trace.droppedCalls, 7u);
  ASSERT_EQ(trace.modules.size(), 1u);
  EXPECT_EQ(trace.modules[0].path, "/bin/my app");
  EXPECT_EQ(trace.modules[0].end, 0x500000u);
  ASSERT_EQ(trace.sites.size(), 1u);
  const RawSite &r = trace.sites[0];
  EXPECT_EQ(r.api, "cudaMemcpyAsync_v3020");
  EXPECT_EQ(r.traits, 6);
  EXPECT_EQ(r.calls, 5u);
  EXPECT_EQ(r.hostNs, 12345u);
  EXPECT_EQ(r.bytes, 1u << 20);
  EXPECT_EQ(r.pageable, 4u);
  EXPECT_EQ(r.pinned, 1u);
  EXPECT_EQ(r.callbackThreadErrors, 2u);
  EXPECT_EQ(r.lastCallbackThreadError, 800);
  EXPECT_EQ(r.frames, (std::vector<std::uintptr_t>{0x401000, 0x7f0000001234}));
}

TEST(RawTrace, TruncatedTraceIsReadButMarkedIncomplete) {
  std::istringstream in("streamlint-raw-trace 1\npid 1\ndropped 0\n"
                        "site cudaFree 16 1 10 0 0 0 0 0 0 0 0 1 abc\n");
  RawTrace trace;
  std::string error;
  ASSERT_TRUE(readRawTrace(in, trace, error)) << error;
  EXPECT_FALSE(trace.complete);
  EXPECT_EQ(trace.sites.size(), 1u);
}

TEST(RawTrace, RejectsGarbage) {
  for (const char *text : {"hello\n", "streamlint-raw-trace 1\nsite x 1 2\n",
                           "streamlint-raw-trace 1\nbogus 3\n"}) {
    std::istringstream in(text);
    RawTrace trace;
    std::string error;
    EXPECT_FALSE(readRawTrace(in, trace, error)) << text;
    EXPECT_FALSE(error.empty());
  }
}

// alloc-in-loop's churn count rides as an optional trailing field, so a
// trace without it still reads (churn 0).
TEST(RawTrace, ChurnRoundTripsAndIsOptional) {
  CallSiteTable table(16);
  std::uintptr_t pcs[] = {0x401000};
  SiteRecord *s = table.acquire(hashStack(pcs, 1, "m"), "cudaMalloc_v3020", 8, pcs, 1);
  s->calls = 10;
  s->churn = 9;
  ModuleMap modules;
  char path[] = "/tmp/rawtraceXXXXXX";
  int fd = mkstemp(path);
  ASSERT_TRUE(writeRawTrace(fd, table, modules, 1, 0));
  close(fd);
  std::ifstream in(path);
  RawTrace trace;
  std::string error;
  ASSERT_TRUE(readRawTrace(in, trace, error)) << error;
  std::remove(path);
  ASSERT_EQ(trace.sites.size(), 1u);
  EXPECT_EQ(trace.sites[0].churn, 9u);
  EXPECT_EQ(trace.sites[0].frames.size(), 1u);

  for (const char *bad : {"site cudaFree 16 1 10 0 0 0 0 0 0 0 0 1 abc churn\n",
                          "site cudaFree 16 1 10 0 0 0 0 0 0 0 0 1 abc bogus 3\n",
                          "site cudaFree 16 1 10 0 0 0 0 0 0 0 0 2 abc\n"}) {
    std::istringstream text(std::string("streamlint-raw-trace 1\n") + bad);
    RawTrace t;
    EXPECT_FALSE(readRawTrace(text, t, error)) << bad;
  }
}

TEST(RawTrace, PathThatDoesNotFitIsRefusedNotTruncated) {
  char path[64];
  EXPECT_TRUE(formatRawTracePath("/tmp/d", 42, path, sizeof path));
  EXPECT_STREQ(path, "/tmp/d/probe-42.raw");
  EXPECT_TRUE(formatRawTracePath(nullptr, 7, path, sizeof path));
  EXPECT_STREQ(path, "./probe-7.raw");
  std::string longDir(1008, 'd');
  char full[1024];
  EXPECT_FALSE(formatRawTracePath(longDir.c_str(), 1234567, full, sizeof full));
}

TEST(RawTrace, OpenNeverFollowsASymbolicLink) {
  std::string dir = ::testing::TempDir();
  std::string target = dir + "/raw-target", link = dir + "/probe-1.raw";
  std::remove(link.c_str());
  { std::ofstream(target) << "kept\n"; }
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  EXPECT_EQ(openRawTrace(link.c_str()), -1);
  std::ifstream in(target);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "kept");
  std::remove(link.c_str());
  int fd = openRawTrace(link.c_str());
  EXPECT_GE(fd, 0);
  close(fd);
}
