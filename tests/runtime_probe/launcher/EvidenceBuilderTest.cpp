#include "ApiCatalog.h"
#include "EvidenceBuilder.h"

#include <gtest/gtest.h>

using namespace streamlint;
using namespace streamlint::probe;

namespace {
RawSite site(const char *api, std::uint64_t calls) {
  RawSite s;
  s.counts.api = api;
  s.traits = classifyApi(api);
  s.counts[Counter::Calls] = calls;
  s.counts[Counter::HostNs] = calls * 2000;
  return s;
}
const TraceObservation *find(const std::vector<TraceObservation> &obs,
                             const std::string &check) {
  for (const auto &o : obs)
    if (o.check == check)
      return &o;
  return nullptr;
}
const SourceSite kWhere{"/src/app.cu", 12, "main", false};
} // namespace

TEST(EvidenceBuilder, AsyncCopyFeedsTwoChecks) {
  RawSite s = site("cudaMemcpyAsync_v3020", 4);
  s.counts[Counter::StreamCalls] = 4;
  s.counts[Counter::LegacyStream] = 1;
  s.counts[Counter::Pageable] = 3;
  s.counts[Counter::Pinned] = 1;
  s.counts[Counter::Bytes] = 4096;
  auto obs = observationsFor(s, kWhere);
  const auto *copy = find(obs, "pageable-memcpy-async");
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->misuses, 3u);
  EXPECT_EQ(copy->bytes, 4096u);
  EXPECT_DOUBLE_EQ(copy->hostTimeUs, 8.0);
  EXPECT_EQ(copy->api, "cudaMemcpyAsync");
  const auto *stream = find(obs, "default-stream");
  ASSERT_TRUE(stream);
  EXPECT_EQ(stream->calls, 4u);
  EXPECT_EQ(stream->misuses, 1u);
  EXPECT_FALSE(find(obs, "alloc-in-loop"));
  ASSERT_TRUE(find(obs, "api-in-host-callback"));
  EXPECT_EQ(find(obs, "api-in-host-callback")->misuses, 0u);
  // library-default-stream is judged by default-stream's observation of
  // the same site: no copy of it in the trace.
  EXPECT_FALSE(find(obs, "library-default-stream"));
}

// Churn, not repetition (issue 14): a set-up loop that ran the line 7 times
// without reallocating freed memory is no misuse; churned calls are.
TEST(EvidenceBuilder, AllocationIsAMisuseOnlyWhenChurned) {
  EXPECT_EQ(find(observationsFor(site("cudaMalloc_v3020", 1), kWhere), "alloc-in-loop")->misuses, 0u);
  EXPECT_EQ(find(observationsFor(site("cudaMalloc_v3020", 7), kWhere), "alloc-in-loop")->misuses, 0u);
  RawSite churning = site("cudaMalloc_v3020", 7);
  churning.counts[Counter::Churn] = 6;
  auto obs = observationsFor(churning, kWhere);
  const auto *o = find(obs, "alloc-in-loop");
  EXPECT_EQ(o->misuses, 6u);
  EXPECT_NE(o->detail.find("6 of 7 calls churned"), std::string::npos) << o->detail;
}

// Only device-wide waits are device-sync misuses: cudaStreamSynchronize on a
// stream of its own is the fix the check recommends.
TEST(EvidenceBuilder, DeviceSyncCountsOnlyDeviceWideWaits) {
  struct Case {
    const char *api;
    std::uint64_t calls, legacy, wantMisuses;
  } cases[] = {{"cudaDeviceSynchronize_v3020", 2, 0, 2},
               {"cudaThreadSynchronize_v3020", 3, 0, 3},
               {"cudaStreamSynchronize_v3020", 5, 0, 0},
               {"cudaStreamSynchronize_v3020", 5, 2, 2},
               {"cudaStreamSynchronize_ptsz_v7000", 4, 1, 1},
               {"cudaEventSynchronize_v3020", 6, 0, 0},
               // Synchronous copies: device-wide on the legacy default
               // stream only (a per-thread build's cudaMemcpy_ptds is not).
               {"cudaMemcpy_v3020", 3, 3, 3},
               {"cudaMemset_ptds_v7000", 2, 0, 0}};
  for (const Case &c : cases) {
    RawSite s = site(c.api, c.calls);
    s.counts[Counter::StreamCalls] = (c.legacy || (s.traits & TraitImplicitStream)) ? c.calls : 0;
    s.counts[Counter::LegacyStream] = c.legacy;
    auto obs = observationsFor(s, kWhere);
    const auto *sync = find(obs, "device-sync");
    ASSERT_TRUE(sync) << c.api;
    EXPECT_EQ(sync->calls, c.calls) << c.api;
    EXPECT_EQ(sync->misuses, c.wantMisuses) << c.api << " legacy " << c.legacy;
    EXPECT_FALSE(find(obs, "default-stream")) << c.api; // a wait, not work
  }
}

TEST(EvidenceBuilder, SumsCallPathsThatReachOneLine) {
  EvidenceBuilder builder;
  RawSite once = site("cudaMalloc_v3020", 1); // two callers, once each, each
  once.counts[Counter::Churn] = 1; // after its memory was freed
  builder.add(once, kWhere);
  builder.add(once, kWhere);
  RawSite cb = site("cudaFree_v3020", 1);
  cb.counts[Counter::CallbackThreadCalls] = 1;
  cb.counts[Counter::CallbackThreadErrors] = 1;
  cb.counts.lastCallbackThreadError = 800;
  builder.add(cb, {"/src/app.cu", 30, "cb", false});
  auto obs = builder.observations();
  const auto *alloc = find(obs, "alloc-in-loop");
  ASSERT_TRUE(alloc);
  EXPECT_EQ(alloc->calls, 2u);
  EXPECT_EQ(alloc->misuses, 2u); // the churn of both paths
  EXPECT_NE(alloc->detail.find("2 of 2 calls churned"), std::string::npos);
  unsigned callbackHits = 0;
  for (const auto &o : obs)
    if (o.check == "api-in-host-callback" && o.misuses) {
      ++callbackHits;
      EXPECT_EQ(o.line, 30u);
      EXPECT_NE(o.detail.find("800"), std::string::npos);
    }
  EXPECT_EQ(callbackHits, 1u);
}
