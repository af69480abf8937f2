#include "RawTrace.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace streamlint::probe;

TEST(RawTrace, RoundTripsThroughAFile) {
  CallSiteTable table(16);
  std::uintptr_t pcs[] = {0x401000, 0x7f0000001234};
  SiteRecord *s = table.acquire(hashStack(pcs, 2, "a"), "cudaMemcpyAsync_v3020", 6, pcs, 2);
  (*s)[Counter::Calls] = 5;
  (*s)[Counter::HostNs] = 12345;
  (*s)[Counter::Bytes] = 1 << 20;
  (*s)[Counter::Pageable] = 4;
  (*s)[Counter::Pinned] = 1;
  (*s)[Counter::CallbackThreadCalls] = 2;
  (*s)[Counter::CallbackThreadErrors] = 2;
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
  EXPECT_EQ(r.counts.api, "cudaMemcpyAsync_v3020");
  EXPECT_EQ(r.traits, 6);
  EXPECT_EQ(r[Counter::Calls], 5u);
  EXPECT_EQ(r[Counter::HostNs], 12345u);
  EXPECT_EQ(r[Counter::Bytes], 1u << 20);
  EXPECT_EQ(r[Counter::Pageable], 4u);
  EXPECT_EQ(r[Counter::Pinned], 1u);
  EXPECT_EQ(r[Counter::CallbackThreadErrors], 2u);
  EXPECT_EQ(r.counts.lastCallbackThreadError, 800);
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
  (*s)[Counter::Calls] = 10;
  (*s)[Counter::Churn] = 9;
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
  EXPECT_EQ(trace.sites[0][Counter::Churn], 9u);
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

// Traces written before the counters had names (version 1: positional
// fields, churn as an optional trailing pair) still read: a checked-in
// sample in that format.
TEST(RawTrace, ReadsAVersionOneTrace) {
  std::ifstream in(std::string(STREAMLINT_SOURCE_DIR) +
                   "/tests/runtime_probe/fixtures/raw-trace-v1.raw");
  ASSERT_TRUE(in) << "fixture missing";
  RawTrace trace;
  std::string error;
  ASSERT_TRUE(readRawTrace(in, trace, error)) << error;
  EXPECT_TRUE(trace.complete);
  EXPECT_EQ(trace.pid, 4242);
  EXPECT_EQ(trace.droppedCalls, 3u);
  ASSERT_EQ(trace.modules.size(), 2u);
  ASSERT_EQ(trace.sites.size(), 3u);
  const RawSite &copy = trace.sites[0];
  EXPECT_EQ(copy.counts.api, "cudaMemcpyAsync_v3020");
  EXPECT_EQ(copy.traits, 6);
  EXPECT_EQ(copy[Counter::Calls], 5u);
  EXPECT_EQ(copy[Counter::HostNs], 12345u);
  EXPECT_EQ(copy[Counter::Bytes], 1048576u);
  EXPECT_EQ(copy[Counter::StreamCalls], 5u);
  EXPECT_EQ(copy[Counter::LegacyStream], 2u);
  EXPECT_EQ(copy[Counter::Pageable], 4u);
  EXPECT_EQ(copy[Counter::Pinned], 1u);
  EXPECT_EQ(copy[Counter::Churn], 0u);
  EXPECT_EQ(copy.frames, (std::vector<std::uintptr_t>{0x401a2b, 0x401c00}));
  EXPECT_EQ(trace.sites[1][Counter::Churn], 9u);
  EXPECT_EQ(trace.sites[1][Counter::Calls], 10u);
  const RawSite &query = trace.sites[2];
  EXPECT_EQ(query[Counter::CallbackThreadCalls], 2u);
  EXPECT_EQ(query[Counter::CallbackThreadErrors], 2u);
  EXPECT_EQ(query.counts.lastCallbackThreadError, 800);
}

// Version 2 writes every counter as name=value (those at 0 left out), so a
// new counter needs no change here: each counter round-trips by its name.
TEST(RawTrace, EveryCounterRoundTripsByName) {
  CallSiteTable table(16);
  std::uintptr_t pcs[] = {0x401000};
  SiteRecord *s = table.acquire(hashStack(pcs, 1, "x"), "cudaMemcpyAsync_v3020", 6, pcs, 1);
  for (std::size_t i = 0; i < kCounterCount; ++i)
    (*s)[static_cast<Counter>(i)] = 100 + i;
  s->lastCallbackThreadError = -3;
  char path[] = "/tmp/rawtraceXXXXXX";
  int fd = mkstemp(path);
  ASSERT_TRUE(writeRawTrace(fd, table, ModuleMap(), 1, 0));
  close(fd);
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::remove(path);
  EXPECT_EQ(text.rfind("streamlint-raw-trace 2\n", 0), 0u);
  EXPECT_NE(text.find(" churn=107"), std::string::npos) << text;
  EXPECT_NE(text.find(" last_callback_thread_error=-3"), std::string::npos) << text;
  std::istringstream again(text);
  RawTrace trace;
  std::string error;
  ASSERT_TRUE(readRawTrace(again, trace, error)) << error;
  ASSERT_EQ(trace.sites.size(), 1u);
  for (std::size_t i = 0; i < kCounterCount; ++i)
    EXPECT_EQ(trace.sites[0][static_cast<Counter>(i)], 100 + i) << counterName(Counter(i));
  EXPECT_EQ(trace.sites[0].counts.lastCallbackThreadError, -3);
}

TEST(RawTrace, VersionTwoRejectsMalformedPairs) {
  for (const char *bad : {"site cudaFree 16 1 abc calls\n", "site cudaFree 16 1 abc calls=\n",
                          "site cudaFree 16 1 abc calls=x\n", "site cudaFree 16 1 abc calls=1x\n",
                          "site cudaFree 16 1 abc bogus=3\n", "site cudaFree 16 2 abc calls=1\n"}) {
    std::istringstream text(std::string("streamlint-raw-trace 2\n") + bad);
    RawTrace t;
    std::string error;
    EXPECT_FALSE(readRawTrace(text, t, error)) << bad;
    EXPECT_FALSE(error.empty());
  }
  std::istringstream unknown("streamlint-raw-trace 2\nsite cudaFree 16 1 abc bogus=3\n");
  RawTrace t;
  std::string error;
  EXPECT_FALSE(readRawTrace(unknown, t, error));
  EXPECT_NE(error.find("unknown counter 'bogus'"), std::string::npos) << error;
  std::istringstream minimal("streamlint-raw-trace 2\nsite cudaFree 16 1 abc calls=4\nend\n");
  ASSERT_TRUE(readRawTrace(minimal, t, error)) << error;
  EXPECT_EQ(t.sites[0][Counter::Calls], 4u);
  EXPECT_EQ(t.sites[0][Counter::Churn], 0u);
}

TEST(SiteCounters, EachCounterHasOneDistinctName) {
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < kCounterCount; ++i) {
    Counter counter = static_cast<Counter>(i);
    Counter back;
    ASSERT_TRUE(counterNamed(counterName(counter), back));
    EXPECT_EQ(back, counter);
    EXPECT_TRUE(names.insert(counterName(counter)).second) << counterName(counter);
    EXPECT_EQ(counterName(counter).find_first_of(" =\n"), std::string_view::npos);
  }
  Counter none;
  EXPECT_FALSE(counterNamed("last_callback_thread_error", none));
}
