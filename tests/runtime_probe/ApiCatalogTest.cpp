#include "ApiCatalog.h"

#include <gtest/gtest.h>

using namespace streamlint::probe;

TEST(ApiCatalog, StripsVersionAndPerThreadSuffixes) {
  EXPECT_EQ(streamlint::api::baseName("cudaMemcpyAsync_ptsz_v7000"), "cudaMemcpyAsync");
  EXPECT_EQ(streamlint::api::baseName("cudaLaunchKernel_v7000"), "cudaLaunchKernel");
  EXPECT_EQ(streamlint::api::baseName("__cudaLaunchKernel_v13000"), "__cudaLaunchKernel");
  EXPECT_EQ(streamlint::api::baseName("cudaMalloc"), "cudaMalloc");
  EXPECT_EQ(streamlint::api::baseName("cudaMalloc3D_v3020"), "cudaMalloc3D");
  EXPECT_EQ(streamlint::api::baseName("cudaFoo_vX"), "cudaFoo_vX");
}

TEST(ApiCatalog, ClassifiesEachMisuseFamily) {
  struct Case { const char *name; std::uint16_t has, hasNot; };
  const Case cases[] = {
      {"cudaLaunchKernel_v7000", TraitLaunch | TraitStreamOrdered, TraitPerThread},
      {"cudaLaunchKernel_ptsz_v7000", TraitLaunch | TraitPerThread, 0},
      {"__cudaLaunchKernel_v13000", TraitLaunch, TraitMemcpyAsync},
      {"cudaMemcpyAsync_v3020", TraitMemcpyAsync | TraitStreamOrdered, TraitLaunch},
      {"cudaMemsetAsync_v3020", TraitStreamOrdered, TraitMemcpyAsync},
      {"cudaHostAlloc_v3020", TraitAllocation, TraitStreamOrdered},
      {"cudaFree_v3020", TraitAllocation, 0},
      {"cudaDeviceSynchronize_v3020", TraitSynchronization | TraitDeviceWide, TraitAllocation},
      {"cudaStreamSynchronize_ptsz_v7000", TraitSynchronization | TraitPerThread, TraitDeviceWide},
      {"cudaEventSynchronize_v3020", TraitSynchronization, TraitDeviceWide | TraitStreamOrdered},
      // Synchronous copies and memsets: device-sync's, on the default stream.
      {"cudaMemcpy_v3020", TraitSynchronization | TraitImplicitStream,
       TraitStreamOrdered | TraitMemcpyAsync | TraitPerThread | TraitDeviceWide},
      {"cudaMemset_ptds_v7000", TraitSynchronization | TraitImplicitStream | TraitPerThread,
       TraitStreamOrdered},
      {"cudaMemcpyToSymbol_v3020", TraitSynchronization | TraitImplicitStream, TraitMemcpyAsync},
      {"cudaMemcpyToSymbolAsync_v3020", TraitMemcpyAsync, TraitImplicitStream},
      {"cudaMallocMipmappedArray_v5000", TraitAllocation, TraitSynchronization},
      {"cudaGetLastError_v3020", TraitKnown, TraitStreamOrdered | TraitAllocation |
                                                 TraitSynchronization},
  };
  for (const Case &c : cases) {
    std::uint16_t t = classifyApi(c.name);
    EXPECT_EQ(t & c.has, c.has) << c.name;
    EXPECT_EQ(t & c.hasNot, 0) << c.name;
    EXPECT_TRUE(t & TraitKnown) << c.name;
  }
}

TEST(ApiCatalog, LegacyStreamDependsOnTheVariant) {
  EXPECT_TRUE(streamlint::api::isLegacyStreamHandle(0, false));
  EXPECT_FALSE(streamlint::api::isLegacyStreamHandle(0, true)); // per-thread build: 0 is per-thread
  EXPECT_TRUE(streamlint::api::isLegacyStreamHandle(streamlint::api::StreamLegacyHandle, true));
  EXPECT_FALSE(streamlint::api::isLegacyStreamHandle(streamlint::api::StreamPerThreadHandle, false));
  EXPECT_FALSE(streamlint::api::isLegacyStreamHandle(0x7f0012345678, false));
}
