#include "ApiCatalog.h"
#include "ProbeHandlers.h"

#include <gtest/gtest.h>

using namespace streamlint::probe;

namespace {
ApiCall call(const char *api) {
  ApiCall c;
  c.traits = classifyApi(api);
  c.hostNs = 1000;
  return c;
}
} // namespace

TEST(ProbeHandlers, DefaultStreamCountsLegacyCallsOnly) {
  SiteRecord site;
  ApiCall legacy = call("cudaLaunchKernel_v7000");
  legacy.stream = ObservedStream::Legacy;
  ApiCall other = legacy;
  other.stream = ObservedStream::Other;
  ApiCall unknown = legacy;
  unknown.stream = ObservedStream::Unknown;
  recordCall(site, legacy);
  recordCall(site, other);
  recordCall(site, unknown);
  EXPECT_EQ(site.count(Counter::Calls), 3u);
  EXPECT_EQ(site.count(Counter::StreamCalls), 2u);
  EXPECT_EQ(site.count(Counter::LegacyStream), 1u);
  EXPECT_EQ(site.count(Counter::HostNs), 3000u);
}

TEST(ProbeHandlers, AsyncCopyTracksHostMemoryAndBytes) {
  SiteRecord site;
  ApiCall c = call("cudaMemcpyAsync_v3020");
  c.bytes = 4096;
  c.hostMemory = HostMemory::Pageable;
  recordCall(site, c);
  c.hostMemory = HostMemory::Pinned;
  recordCall(site, c);
  EXPECT_EQ(site.count(Counter::Pageable), 1u);
  EXPECT_EQ(site.count(Counter::Pinned), 1u);
  EXPECT_EQ(site.count(Counter::Bytes), 8192u);
}

TEST(ProbeHandlers, AllocationAndSyncOnlyCountCallsAndTime) {
  SiteRecord site;
  ApiCall c = call("cudaMalloc_v3020");
  c.stream = ObservedStream::Legacy; // ignored: cudaMalloc takes no stream
  c.bytes = 99;                  // ignored: not a copy
  recordCall(site, c);
  EXPECT_EQ(site.count(Counter::Calls), 1u);
  EXPECT_EQ(site.count(Counter::StreamCalls), 0u);
  EXPECT_EQ(site.count(Counter::Bytes), 0u);
}

// cudaStreamSynchronize(0) waits for the legacy stream: its stream is counted
// so that the evidence can tell it from a wait on the program's own stream.
TEST(ProbeHandlers, StreamSynchronizeCountsItsStream) {
  SiteRecord site;
  ApiCall legacy = call("cudaStreamSynchronize_v3020");
  legacy.stream = ObservedStream::Legacy;
  ApiCall own = legacy;
  own.stream = ObservedStream::Other;
  recordCall(site, legacy);
  recordCall(site, own);
  EXPECT_EQ(site.count(Counter::Calls), 2u);
  EXPECT_EQ(site.count(Counter::StreamCalls), 2u);
  EXPECT_EQ(site.count(Counter::LegacyStream), 1u);
}

TEST(ProbeHandlers, CallbackThreadCallsKeepTheLastError) {
  SiteRecord site;
  ApiCall c = call("cudaFree_v3020");
  recordCall(site, c); // main thread
  c.onCallbackThread = true;
  c.result = 800;
  recordCall(site, c);
  c.result = 0;
  recordCall(site, c);
  EXPECT_EQ(site.count(Counter::CallbackThreadCalls), 2u);
  EXPECT_EQ(site.count(Counter::CallbackThreadErrors), 1u);
  EXPECT_EQ(site.lastCallbackThreadError.load(), 800);
}
