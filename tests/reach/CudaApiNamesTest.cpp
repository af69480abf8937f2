// The name tables behind CUDA API classification.
#include "analyzer/reach/CudaApi.h"
#include "analyzer/reach/ReachSummary.h"

#include <gtest/gtest.h>

namespace streamlint::reach {
namespace {

TEST(CudaApiNames, BaseNames) {
  struct Case { const char *spelled, *base; bool perThread; };
  for (const Case &c : std::vector<Case>{
           {"cudaMemcpy_ptds", "cudaMemcpy", true},
           {"cudaStreamSynchronize_ptsz", "cudaStreamSynchronize", true},
           {"cuMemAlloc_v2", "cuMemAlloc", false},
           {"cudaMalloc", "cudaMalloc", false}}) {
    SCOPED_TRACE(c.spelled);
    EXPECT_EQ(api::baseName(c.spelled), c.base);
    EXPECT_EQ(api::parseApiName(c.spelled).perThread, c.perThread);
  }
}

TEST(CudaApiNames, WhichNamesAreApi) {
  struct Case { const char *name; bool api; };
  for (const Case &c : std::vector<Case>{
           {"cudaMalloc", true}, {"cuCtxSynchronize", true}, {"cublasSgemm", true},
           {"cufftExecC2C", true}, {"ncclAllReduce", true}, {"cudnnCreate", true},
           {"cuCaddf", false}, {"cuCabs", false}, {"cuConjf", false},
           {"cuCrealf", false}, {"cudaGetErrorString", false}, {"cute", false},
           {"cumulative", false}, {"compute", false}}) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(hasCudaApiName(c.name), c.api);
  }
}

TEST(CudaApiNames, Kinds) {
  llvm::StringSet<> extra = parseNameList(" poolAlloc ;;myAlloc;");
  EXPECT_EQ(extra.size(), 2u);
  struct Case { const char *name; unsigned kinds; };
  for (const Case &c : std::vector<Case>{
           {"cudaMalloc", Allocates}, {"cudaHostRegister", Allocates},
           {"cudaFreeHost", Frees}, {"cuMemFree", Frees},
           {"cudaMallocAsync", NoApi}, {"cudaFreeAsync", NoApi},
           {"poolAlloc", Allocates}, {"cudaMemcpy", NoApi}}) {
    SCOPED_TRACE(c.name);
    unsigned kinds = extra.contains(c.name) ? Allocates : allocationKinds(api::findApi(c.name));
    EXPECT_EQ(kinds, c.kinds);
  }
  EXPECT_TRUE(api::findApi("cudaMemcpyToSymbol")->sync == api::SyncKind::DefaultStream);
  EXPECT_FALSE(api::findApi("cudaMemcpyAsync")->sync == api::SyncKind::DefaultStream);
  EXPECT_TRUE(api::findApi("cudaThreadSynchronize")->removed);
  EXPECT_FALSE(api::findApi("cudaDeviceSynchronize")->removed);
  EXPECT_EQ(api::findApi("cudaStreamAddCallback")->callbackIndex, 1);
  EXPECT_EQ(api::findApi("cudaLaunchKernel")->callbackIndex, -1);
}

} // namespace
} // namespace streamlint::reach
