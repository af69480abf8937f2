// The probe enables only the runtime callbacks some check reads (plus the
// host-function registrations) instead of the whole runtime domain
// (CallbackSelection.h). Every CUPTI runtime callback a flagged API can
// arrive as must stay enabled, or its findings would come out "not reached";
// the names are read from the toolkit's cupti_runtime_cbid.h, which spells
// them as cuptiGetCallbackName reports them.
#include "ApiCatalog.h"
#include "CallbackSelection.h"

#include "api/CudaApiTable.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <string>
#include <vector>

using namespace streamlint::probe;
namespace api = streamlint::api;

namespace {
std::vector<std::string> cuptiRuntimeNames() {
  std::ifstream in(CUPTI_RUNTIME_CBID_HEADER);
  std::vector<std::string> names;
  std::regex entry(R"(CUPTI_RUNTIME_TRACE_CBID_(\w+)\s*=)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_search(line, m, entry) && m[1] != "INVALID" && m[1] != "SIZE" &&
        m[1] != "FORCE_INT")
      names.push_back(m[1]);
  }
  return names;
}
} // namespace

TEST(CallbackSelection, EveryFlaggedRuntimeApiKeepsItsCallbacks) {
  std::vector<std::string> names = cuptiRuntimeNames();
  ASSERT_GT(names.size(), 400u) << "cannot read " << CUPTI_RUNTIME_CBID_HEADER;
  std::set<std::string> flagged;
  for (const api::ApiInfo &info : api::allApis())
    if (info.family == api::Family::Runtime && !info.removed &&
        (info.launch || api::isStreamOrderedWork(info) || api::isAsyncHostCopy(info) ||
         api::allocatesMemory(info) || api::freesMemory(info) ||
         info.sync != api::SyncKind::None || info.callbackIndex >= 0))
      flagged.insert(std::string(info.name == "cudaLaunchKernelEx" ? "cudaLaunchKernelExC"
                                                                    : info.name));
  std::set<std::string> seen;
  unsigned wanted = 0;
  for (const std::string &name : names) {
    std::string base(api::baseName(name));
    if (flagged.count(base)) {
      seen.insert(base);
      EXPECT_TRUE(wantsRuntimeCallback(name)) << name << " is flagged but left off";
    }
    wanted += wantsRuntimeCallback(name);
  }
  EXPECT_GT(seen.size(), 60u);
  // The point of the selection: most runtime calls are left off.
  EXPECT_LT(wanted, names.size() / 3) << wanted << " of " << names.size();
}

TEST(CallbackSelection, CallsNoCheckReadsAreLeftOff) {
  for (const char *name : {"cudaGetLastError_v3020", "cudaPeekAtLastError_v3020",
                           "cudaGetDevice_v3020", "cudaSetDevice_v3020",
                           "cudaStreamCreate_v3020", "cudaStreamDestroy_v5050",
                           "cudaEventCreate_v3020", "cudaStreamQuery_v3020",
                           "cudaFuncGetAttributes_v3020",
                           "__cudaPushCallConfiguration_v13000"})
    EXPECT_FALSE(wantsRuntimeCallback(name)) << name;
  for (const char *name : {"cudaMemcpyAsync_v3020", "cudaMemcpyAsync_ptsz_v7000",
                           "cudaLaunchKernel_v7000", "__cudaLaunchKernel_v13000",
                           "cudaDeviceSynchronize_v3020", "cudaStreamSynchronize_v3020",
                           "cudaMalloc_v3020", "cudaFree_v3020", "cudaMallocHost_v3020",
                           "cudaHostRegister_v4000", "cudaMemcpy_v3020",
                           "cudaEventRecord_v3020", "cudaMallocAsync_v11020"})
    EXPECT_TRUE(wantsRuntimeCallback(name)) << name;
}

// A host function's registration turns the whole domain on (every CUDA call
// on the callback thread is api-in-host-callback's misuse), so the
// registrations themselves must be seen, in the catalog or not.
TEST(CallbackSelection, HostFunctionRegistrationsAreSeen) {
  for (const char *name : {"cudaLaunchHostFunc_v10000", "cudaLaunchHostFunc_ptsz_v10000",
                           "cudaStreamAddCallback_v5000", "cudaStreamAddCallback_ptsz_v7000",
                           "cudaGraphAddHostNode_v10000", "cudaGraphAddNode_v12030",
                           "cudaGraphExecHostNodeSetParams_v10020",
                           "cudaUserObjectCreate_v11030"}) {
    EXPECT_TRUE(registersHostFunction(name)) << name;
    EXPECT_TRUE(wantsRuntimeCallback(name)) << name;
  }
  EXPECT_FALSE(registersHostFunction("cudaMemcpyAsync_v3020"));
  EXPECT_FALSE(registersHostFunction("cudaGraphLaunch_v10000"));
}

// A registrar fetched by name (cudaGetDriverEntryPoint) is registered without
// any import the start-up scan could see: the fetch is seen and its symbol
// checked. The names must be CUPTI's.
TEST(CallbackSelection, DriverEntryPointFetchesAreSeen) {
  std::vector<std::string> names = cuptiRuntimeNames();
  unsigned fetchers = 0;
  for (const std::string &name : names)
    if (fetchesDriverEntryPoint(name)) {
      ++fetchers;
      EXPECT_TRUE(wantsRuntimeCallback(name)) << name;
    }
  EXPECT_EQ(fetchers, 4u); // ByVersion or not, _ptsz or not
  EXPECT_FALSE(fetchesDriverEntryPoint("cudaGetDeviceProperties_v3020"));
  for (const char *symbol : {"cuLaunchHostFunc", "cuStreamAddCallback", "cuGraphAddHostNode",
                             "cuGraphAddNode", "cuUserObjectCreate", "cuLaunchHostFunc_ptsz"})
    EXPECT_TRUE(driverSymbolRegistersHostFunction(symbol)) << symbol;
  for (const char *symbol : {"cuMemAlloc", "cuLaunchKernel", "cuGraphLaunch", "", "cu"})
    EXPECT_FALSE(driverSymbolRegistersHostFunction(symbol)) << symbol;
}

TEST(CallbackSelection, ForcedOrByImports) {
  EXPECT_EQ(runtimeCallbacksWanted("all"), RuntimeCallbacks::All);
  EXPECT_EQ(runtimeCallbacksWanted("catalog"), RuntimeCallbacks::Catalog);
  // This test binary imports no driver entry point that registers a host
  // function (cuLaunchHostFunc, ...), nor cuGetProcAddress.
  EXPECT_EQ(runtimeCallbacksWanted(nullptr), RuntimeCallbacks::Catalog);
  EXPECT_EQ(runtimeCallbacksWanted(""), RuntimeCallbacks::Catalog);
}
