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
    EXPECT_EQ(baseApiName(c.spelled), c.base);
    EXPECT_EQ(hasPerThreadSuffix(c.spelled), c.perThread);
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
    EXPECT_EQ(allocationKinds(c.name, extra), c.kinds);
  }
  EXPECT_TRUE(isSynchronousCopy("cudaMemcpyToSymbol"));
  EXPECT_FALSE(isSynchronousCopy("cudaMemcpyAsync"));
  EXPECT_TRUE(isRemovedCudaApi("cudaThreadSynchronize"));
  EXPECT_FALSE(isRemovedCudaApi("cudaDeviceSynchronize"));
  EXPECT_EQ(hostCallbackArgument("cudaStreamAddCallback"), 1);
  EXPECT_EQ(hostCallbackArgument("cudaLaunchKernel"), -1);
}

} // namespace
} // namespace streamlint::reach
