// Every API a check flags is one the probe classifies the same way: for each
// row of the API table (api/CudaApiTable.h) a check selects, the probe's
// traits for each of its CUPTI names (`cudaMemcpyAsync_ptsz_v7000`) agree
// with the check's predicate, and a run-time site of that API yields an
// observation for that check (CatalogParityTest checks that the probe decodes
// and subscribes to each of them, driver entry points included).
#include "ApiCatalog.h"
#include "EvidenceBuilder.h"

#include <gtest/gtest.h>

#include <string>

using namespace streamlint;
using namespace streamlint::probe;

namespace {

const SourceSite kWhere{"/src/app.cu", 12, "main", false};

bool observes(const std::vector<TraceObservation> &observations, const char *check) {
  for (const TraceObservation &o : observations)
    if (o.check == check && o.calls > 0)
      return true;
  return false;
}

/// A site where the probe saw `name` misused three times.
RawSite misusedSite(const std::string &name) {
  RawSite site;
  site.counts.api = name;
  site.traits = classifyApi(name);
  for (Counter counter : {Counter::Calls, Counter::StreamCalls, Counter::LegacyStream,
                          Counter::Pageable})
    site.counts[counter] = 3;
  return site;
}

std::vector<std::string> cuptiNames(const api::ApiInfo &info) {
  std::vector<std::string> names;
  for (const std::string &spelling : api::spellingsOf(info)) {
    names.push_back(spelling);
    names.push_back(spelling + "_v3020"); // CUPTI appends the API version
  }
  return names;
}

} // namespace

TEST(ApiAgreement, ProbeTraitsFollowTheChecksPredicates) {
  for (const api::ApiInfo &info : api::allApis()) {
    if (info.family != api::Family::Runtime)
      continue;
    for (const std::string &name : cuptiNames(info)) {
      SCOPED_TRACE(name);
      std::uint16_t traits = classifyApi(name);
      EXPECT_EQ(bool(traits & TraitStreamOrdered), api::isStreamOrderedWork(info));
      EXPECT_EQ(bool(traits & TraitMemcpyAsync), api::isAsyncHostCopy(info));
      EXPECT_EQ(bool(traits & TraitAllocation),
                api::allocatesMemory(info) || api::freesMemory(info));
      EXPECT_EQ(bool(traits & TraitDeviceWide), info.sync == api::SyncKind::Device);
      EXPECT_EQ(bool(traits & TraitImplicitStream), info.sync == api::SyncKind::DefaultStream);
      if (api::maySynchronizeDevice(info))
        EXPECT_TRUE(traits & TraitSynchronization);
      EXPECT_EQ(bool(traits & TraitPerThread), api::parseApiName(name).perThread);
      EXPECT_EQ(bool(traits & TraitLaunch), info.launch);
    }
  }
}

TEST(ApiAgreement, EveryFlaggedRuntimeApiYieldsEvidenceForItsCheck) {
  for (const api::ApiInfo &info : api::allApis()) {
    if (info.family != api::Family::Runtime || info.removed)
      continue;
    for (const std::string &name : cuptiNames(info)) {
      SCOPED_TRACE(name);
      std::vector<TraceObservation> observations =
          observationsFor(misusedSite(name), kWhere);
      if (api::isStreamOrderedWork(info))
        EXPECT_TRUE(observes(observations, "default-stream"));
      if (api::isAsyncHostCopy(info))
        EXPECT_TRUE(observes(observations, "pageable-memcpy-async"));
      if (api::allocatesMemory(info) || api::freesMemory(info))
        EXPECT_TRUE(observes(observations, "alloc-in-loop"));
      if (api::maySynchronizeDevice(info))
        EXPECT_TRUE(observes(observations, "device-sync"));
      // api-in-host-callback flags any CUDA call in a callback.
      EXPECT_TRUE(observes(observations, "api-in-host-callback"));
    }
  }
}

