// Every CUDA API a check flags (a row of api/CudaApiTable.h that a check's
// predicate selects) must be one the probe actually observes, or its findings
// can only come out "not reached": the probe decodes its arguments in
// CallParams.cpp (stream, host pointers, addresses) and, for a driver entry
// point, enables its callback in CuptiProbe.cpp or Switchboard.cpp.
// ApiAgreementTest checks the traits; this test checks the decoding and the
// subscriptions, which live in code the table cannot drive.
#include "ApiCatalog.h"

#include "api/CudaApiTable.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>

using namespace streamlint::probe;

namespace {
std::string readSource(const std::string &relative) {
  std::ifstream in(std::string(STREAMLINT_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The runtime reports cudaLaunchKernelEx (a C++ template) as ExC.
std::string reported(const std::string &name) {
  return name == "cudaLaunchKernelEx" ? "cudaLaunchKernelExC" : name;
}

// The probe reads the stream (and host pointers) of every stream-ordered
// call it classifies from a case in CallParams.cpp; a driver entry point is
// only seen if its callback is enabled in CuptiProbe.cpp (the entry points
// the checks flag) or Switchboard.cpp (the launches it turns on on demand).
void expectObserved(const std::string &api, const std::string &callParams,
                    const std::string &switchboard, bool needsParams) {
  std::uint16_t traits = classifyApi(api);
  if (traits & TraitDriverApi) {
    EXPECT_NE(switchboard.find("CUPTI_DRIVER_TRACE_CBID_" + api), std::string::npos)
        << api << ": its driver callback is never enabled";
    return;
  }
  if (needsParams)
    EXPECT_TRUE(callParams.find("(" + api + "_v") != std::string::npos ||
                callParams.find("CBID_" + api + "_v") != std::string::npos)
        << api << ": no params case reads its arguments";
}

struct Sources {
  std::string callParams = readSource("runtime_probe/CallParams.cpp");
  std::string switchboard = readSource("runtime_probe/CuptiProbe.cpp") +
                            readSource("runtime_probe/Switchboard.cpp");
};

/// Rows some check selects, with whether the probe must read their arguments.
std::vector<std::pair<const streamlint::api::ApiInfo *, bool>> flaggedRows() {
  namespace api = streamlint::api;
  std::vector<std::pair<const api::ApiInfo *, bool>> rows;
  for (const api::ApiInfo &info : api::allApis()) {
    if (info.removed)
      continue;
    bool needsParams = api::isStreamOrderedWork(info) || api::isAsyncHostCopy(info) ||
                       api::allocatesMemory(info) || api::freesMemory(info) ||
                       info.sync == api::SyncKind::Stream;
    if (needsParams || api::maySynchronizeDevice(info))
      rows.push_back({&info, needsParams});
  }
  return rows;
}
} // namespace

TEST(CatalogParity, EveryFlaggedApiIsObserved) {
  Sources s;
  auto rows = flaggedRows();
  ASSERT_GE(rows.size(), 50u) << "the table shrank: update this test";
  for (const auto &[info, needsParams] : rows) {
    std::string api = reported(std::string(info->name));
    SCOPED_TRACE(api);
    EXPECT_TRUE(classifyApi(api) & TraitKnown);
    if (info->sync == streamlint::api::SyncKind::DefaultStream && !needsParams)
      continue; // synchronous copies: judged by their implicit stream, no args
    if (info->launch && info->stream == streamlint::api::StreamDefault::NoStream) {
      // nvcc's <<<>>> lowering: the stream is read from the driver launch.
      EXPECT_NE(s.switchboard.find("CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel"), std::string::npos);
      continue;
    }
    expectObserved(api, s.callParams, s.switchboard, needsParams);
  }
}

TEST(CatalogParity, SynchronizationsMatch) {
  for (const char *api : {"cudaDeviceSynchronize", "cudaThreadSynchronize", "cuCtxSynchronize"})
    EXPECT_TRUE(classifyApi(api) & TraitDeviceWide) << api;
  for (const char *api : {"cudaStreamSynchronize", "cuStreamSynchronize"}) {
    std::uint16_t t = classifyApi(api);
    EXPECT_TRUE(t & TraitSynchronization) << api;
    EXPECT_FALSE(t & TraitDeviceWide) << api; // only on the legacy stream
  }
  for (const char *api : {"cudaMemcpy", "cudaMemset", "cudaMemcpyToSymbol"}) {
    std::uint16_t t = classifyApi(api);
    EXPECT_TRUE((t & TraitSynchronization) && (t & TraitImplicitStream)) << api;
  }
}
