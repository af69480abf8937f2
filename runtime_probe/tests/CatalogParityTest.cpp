// One catalog (issue 14): every CUDA API a check flags must be one the probe
// observes and classifies the same way, or its findings can only come out
// "not reached". Until the shared API table of issue 11 drives both sides,
// this test reads the analyzer's lists from its sources and holds the probe's
// catalog, its params decoding and its driver callbacks to them.
#include "ApiCatalog.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
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

/// The text from `start` up to the first line that is only "}" or "};".
std::string block(const std::string &text, const std::string &start) {
  std::size_t from = text.find(start);
  if (from == std::string::npos)
    return "";
  std::size_t to = text.find("\n}", from);
  return text.substr(from, to == std::string::npos ? std::string::npos : to - from);
}

std::set<std::string> apiNames(const std::string &text) {
  static const std::regex name("\"(cuda[A-Za-z0-9]+|cu[A-Z][A-Za-z0-9]+)\"");
  std::set<std::string> names;
  for (std::sregex_iterator it(text.begin(), text.end(), name), end; it != end; ++it)
    names.insert((*it)[1]);
  return names;
}

// The runtime reports cudaLaunchKernelEx (a C++ template) as ExC.
std::string reported(const std::string &name) {
  return name == "cudaLaunchKernelEx" ? "cudaLaunchKernelExC" : name;
}

// The probe reads the stream (and host pointers) of every stream-ordered
// call it classifies from a case in CallParams.cpp; a driver entry point is
// only seen if its callback is enabled in CuptiProbe.cpp.
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
  std::string switchboard = readSource("runtime_probe/CuptiProbe.cpp");
  std::string cudaApi = readSource("analyzer/reach/CudaApi.cpp");
};
} // namespace

TEST(CatalogParity, DefaultStreamApisAreStreamOrdered) {
  Sources s;
  std::string check = readSource("checks/DefaultStreamCheck.cpp");
  std::set<std::string> names = apiNames(block(check, "StreamTakingApis[]"));
  for (const std::string &n : apiNames(block(check, "ConfigLaunchApis[]")))
    names.insert(n);
  ASSERT_GE(names.size(), 20u) << "the list moved: update this test";
  EXPECT_TRUE(names.count("cudaMallocAsync"));
  for (const std::string &name : names) {
    std::string api = reported(name);
    EXPECT_TRUE(classifyApi(api) & TraitStreamOrdered) << api;
    expectObserved(api, s.callParams, s.switchboard, /*needsParams=*/true);
  }
}

TEST(CatalogParity, PageableCopyApisAreAsyncCopies) {
  Sources s;
  std::set<std::string> names =
      apiNames(block(readSource("checks/PageableMemcpyAsyncCheck.cpp"), "CopyApis[]"));
  ASSERT_GE(names.size(), 9u) << "the list moved: update this test";
  for (const std::string &api : names) {
    EXPECT_TRUE(classifyApi(api) & TraitMemcpyAsync) << api;
    expectObserved(api, s.callParams, s.switchboard, /*needsParams=*/true);
  }
}

TEST(CatalogParity, AllocationsAndFreesMatch) {
  Sources s;
  std::string kinds = block(s.cudaApi, "unsigned allocationKinds(");
  std::size_t frees = kinds.find("Frees)");
  std::size_t lastAllocates = kinds.rfind("Allocates)", frees);
  ASSERT_NE(frees, std::string::npos) << "the list moved: update this test";
  std::set<std::string> allocs = apiNames(kinds.substr(0, lastAllocates));
  std::set<std::string> releases = apiNames(kinds.substr(lastAllocates, frees - lastAllocates));
  ASSERT_GE(allocs.size(), 10u);
  ASSERT_GE(releases.size(), 5u);
  for (const std::string &api : allocs) {
    std::uint16_t t = classifyApi(api);
    EXPECT_TRUE(t & TraitAllocation) << api;
    EXPECT_FALSE(t & TraitFrees) << api;
    expectObserved(api, s.callParams, s.switchboard, /*needsParams=*/true);
  }
  for (const std::string &api : releases) {
    std::uint16_t t = classifyApi(api);
    EXPECT_TRUE((t & TraitAllocation) && (t & TraitFrees)) << api;
    expectObserved(api, s.callParams, s.switchboard, /*needsParams=*/true);
  }
}

TEST(CatalogParity, SynchronizationsMatch) {
  Sources s;
  for (const std::string &api : apiNames(block(s.cudaApi, "bool isSynchronousCopy("))) {
    std::uint16_t t = classifyApi(api);
    EXPECT_TRUE((t & TraitSynchronization) && (t & TraitImplicitStream)) << api;
  }
  std::string deviceWide = block(s.cudaApi, "bool isDeviceWideSync(");
  std::size_t streamPart = deviceWide.find("\"cudaStreamSynchronize\"");
  ASSERT_NE(streamPart, std::string::npos) << "the list moved: update this test";
  std::set<std::string> always = apiNames(deviceWide.substr(0, streamPart));
  ASSERT_GE(always.size(), 3u);
  for (const std::string &api : always) {
    EXPECT_TRUE(classifyApi(api) & TraitDeviceWide) << api;
    expectObserved(api, s.callParams, s.switchboard, /*needsParams=*/false);
  }
  for (const char *api : {"cudaStreamSynchronize", "cuStreamSynchronize"}) {
    std::uint16_t t = classifyApi(api);
    EXPECT_TRUE(t & TraitSynchronization) << api;
    EXPECT_FALSE(t & TraitDeviceWide) << api; // only on the legacy stream
    expectObserved(api, s.callParams, s.switchboard, /*needsParams=*/true);
  }
}
