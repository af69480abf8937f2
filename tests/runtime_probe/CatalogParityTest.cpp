// Every CUDA API a check flags (a row of api/CudaApiTable.h that a check's
// predicate selects) must be one the probe actually observes, or its findings
// can only come out "not reached": the probe enables a callback of it (the
// runtime's and the driver's subscriptions both derive from the table,
// CallbackSelection.h) and decodes its arguments in CallParams.cpp (stream,
// host pointers, addresses). ApiAgreementTest checks the traits; this test
// checks the subscriptions over CUPTI's names and the decoding.
#include "ApiCatalog.h"
#include "CallbackSelection.h"

#include "api/CudaApiTable.h"

#include <gtest/gtest.h>

#include <algorithm>
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

// The runtime reports cudaLaunchKernelEx (a C++ template) as ExC.
std::string reported(const std::string &name) {
  return name == "cudaLaunchKernelEx" ? "cudaLaunchKernelExC" : name;
}

/// CUPTI's callback names of one domain ("RUNTIME", "DRIVER"), as
/// cuptiGetCallbackName reports them, read from the toolkit's header.
std::vector<std::string> cuptiNames(const char *header, const std::string &domain) {
  std::ifstream in(header);
  std::vector<std::string> names;
  std::regex entry("CUPTI_" + domain + R"(_TRACE_CBID_(\w+)\s*=)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, entry) && m[1] != "INVALID" && m[1] != "SIZE" &&
        m[1] != "FORCE_INT")
      names.push_back(m[1]);
  }
  return names;
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

// Over the callbacks the probe enables (the same predicates its start-up
// runs over CUPTI's names: wantsRuntimeCallback, wantsDriverCallback), with
// no class of row left out: every flagged row has an enabled callback, and
// the probe decodes the arguments of those whose arguments a check reads.
TEST(CatalogParity, EveryFlaggedApiIsObserved) {
  Sources s;
  std::vector<std::string> runtime = cuptiNames(CUPTI_RUNTIME_CBID_HEADER, "RUNTIME");
  std::vector<std::string> driver = cuptiNames(CUPTI_DRIVER_CBID_HEADER, "DRIVER");
  ASSERT_GT(runtime.size(), 400u) << "cannot read " << CUPTI_RUNTIME_CBID_HEADER;
  ASSERT_GT(driver.size(), 400u) << "cannot read " << CUPTI_DRIVER_CBID_HEADER;
  auto rows = flaggedRows();
  ASSERT_GE(rows.size(), 50u) << "the table shrank: update this test";
  unsigned driverRows = 0, synchronousCopies = 0;
  for (const auto &[info, needsParams] : rows) {
    std::string api = reported(std::string(info->name));
    SCOPED_TRACE(api);
    EXPECT_TRUE(classifyApi(api) & TraitKnown);
    bool isDriver = info->family == streamlint::api::Family::Driver;
    driverRows += isDriver;
    synchronousCopies += info->sync == streamlint::api::SyncKind::DefaultStream;
    std::vector<std::string> enabled;
    for (const std::string &name : isDriver ? driver : runtime)
      if (streamlint::api::baseName(name) == api &&
          (isDriver ? wantsDriverCallback(name) : wantsRuntimeCallback(name)))
        enabled.push_back(name);
    EXPECT_FALSE(enabled.empty()) << "no callback of it is enabled";
    if (info->launch && info->stream == streamlint::api::StreamDefault::NoStream) {
      // nvcc's <<<>>> lowering: the stream is read from the driver launch.
      EXPECT_NE(s.switchboard.find("CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel"), std::string::npos);
      continue;
    }
    if (!needsParams)
      continue; // synchronous copies, device-wide waits: the traits say it all
    if (isDriver) {
      for (const std::string &name : enabled)
        EXPECT_NE(s.callParams.find("DRIVER(" + name + ","), std::string::npos)
            << name << ": no params case reads its arguments";
    } else {
      EXPECT_TRUE(s.callParams.find("(" + api + "_v") != std::string::npos ||
                  s.callParams.find("CBID_" + api + "_v") != std::string::npos)
          << api << ": no params case reads its arguments";
    }
  }
  EXPECT_GE(driverRows, 20u);        // allocations, waits, copies, memsets
  EXPECT_GE(synchronousCopies, 20u); // cudaMemcpy..., cuMemcpy..., cuMemsetD...
}

// The synchronous driver copies device-sync flags are subscribed: a
// program's cuMemcpyHtoD is reached and judged by its implicit stream.
TEST(CatalogParity, SynchronousDriverCopiesAreSubscribed) {
  for (const char *name : {"cuMemcpy", "cuMemcpy_ptds", "cuMemcpyHtoD_v2", "cuMemcpyDtoH_v2",
                           "cuMemcpyDtoH_v2_ptds", "cuMemsetD32_v2", "cuMemcpy2D_v2",
                           "cuCtxSynchronize", "cuStreamSynchronize_ptsz", "cuMemAlloc_v2",
                           "cuMemcpyHtoDAsync_v2_ptsz"})
    EXPECT_TRUE(wantsDriverCallback(name)) << name;
  // Other spellings take other parameters; calls no check reads stay off.
  for (const char *name : {"cuMemAlloc", "cuMemcpyHtoD", "cuCtxSynchronize_v2",
                           "cuMemHostAlloc_v2", "cuLaunchKernel", "cuStreamCreate",
                           "cuLaunchHostFunc", "cudaMemcpy_v3020"})
    EXPECT_FALSE(wantsDriverCallback(name)) << name;
  std::uint16_t copy = classifyApi("cuMemcpyDtoH_v2_ptds");
  EXPECT_TRUE((copy & TraitImplicitStream) && (copy & TraitPerThread) &&
              (copy & TraitDriverApi));
  // The import scan looks for exactly what the subscription enables.
  std::vector<std::string> symbols = driverSiteSymbols();
  EXPECT_NE(std::find(symbols.begin(), symbols.end(), "cuMemcpyHtoD_v2"), symbols.end());
  EXPECT_NE(std::find(symbols.begin(), symbols.end(), "cuMemAlloc_v2"), symbols.end());
  for (const std::string &symbol : symbols)
    EXPECT_TRUE(wantsDriverCallback(symbol)) << symbol;
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
