#include "SiteResolver.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

using namespace streamlint::probe;

TEST(SiteResolver, MapsCudafeNamesBackToTheCuFile) {
  bool guessed = false;
  EXPECT_EQ(mapCudafeName("/b/tmpxft_0001a2b3_00000000-6_app.cudafe1.cpp", guessed), "/b/app.cu");
  EXPECT_TRUE(guessed);
  EXPECT_EQ(mapCudafeName("/src/app.cu", guessed), "/src/app.cu");
  EXPECT_FALSE(guessed);
  EXPECT_EQ(mapCudafeName("/b/kern.cudafe1.cpp", guessed), "/b/kern.cu");
}

TEST(SiteResolver, PicksTheUserFrameAboveRuntimeAndStubs) {
  std::vector<SourceFrame> frames = {
      {"", 0, "cudaLaunchKernel"},                              // static cudart
      {"/usr/local/cuda/include/cuda_runtime.h", 216, "_Z16cudaLaunchKernelIcE9cudaErrorPKT_4dim3S4_PPvmP11CUstream_st"},
      {"/tmp/tmpxft_1_00000000-6_app.cudafe1.stub.c", 3, "_Z20__device_stub__Z1kPfPf"},
      {"/src/app.cu", 4, "_Z1kPf"},                              // host stub at the kernel
      {"/src/app.cu", 20, "main"},
  };
  auto site = pickCallSite(frames);
  ASSERT_TRUE(site);
  EXPECT_EQ(site->file, "/src/app.cu");
  EXPECT_EQ(site->line, 20u);
  EXPECT_EQ(site->function, "main");
}

// Thrust and CUB are inlined from the toolkit's CCCL headers (here from a
// versioned toolkit directory): their frames are not the user's call site.
// Seen on an H100: thrust::sort's kernels were attributed to
// dispatch_radix_sort.cuh instead of the line calling thrust::sort.
TEST(SiteResolver, SkipsThrustAndCubFramesInToolkitHeaders) {
  std::vector<SourceFrame> frames = {
      {"", 0, "cudaLaunchKernel"},
      {"/usr/local/cuda-13.0/include/cccl/cub/device/dispatch/dispatch_radix_sort.cuh", 694,
       "_ZN3cub17DispatchRadixSort"},
      {"/opt/cuda-12.4.1/targets/x86_64-linux/include/cccl/thrust/sort.h", 40, "_ZN6thrust4sort"},
      {"/usr/local/cuda/include/thrust/system/cuda/detail/util.h", 147, "_ZN6thrust8cuda_cub"},
      {"/src/app.cu", 42, "main"},
  };
  auto site = pickCallSite(frames);
  ASSERT_TRUE(site);
  EXPECT_EQ(site->line, 42u);
  // A project's own directory named like a toolkit component is the user's.
  EXPECT_FALSE(isRuntimeFrame({"/src/cudaviz/include/draw.cuh", 3, "_Z4drawv"}));
  EXPECT_FALSE(isRuntimeFrame({"/src/cuda-extras/src/a.cu", 3, "_Z4drawv"}));
}

TEST(SiteResolver, NoUserFrameMeansNoSite) {
  EXPECT_FALSE(pickCallSite({{"", 0, "cudaMalloc"}, {"", 0, "__libc_start_main"}}));
}

// Real DWARF: the fixture (built with -g) records its stack inside
// cudaPretendApi with each unwinder; the resolver must name the CALL-SITE
// line in userCode.
class SymbolizeFixture : public ::testing::TestWithParam<const char *> {};

TEST_P(SymbolizeFixture, SymbolizesARealBinary) {
  std::string raw = ::testing::TempDir() + "/fixture-" + GetParam() + ".raw";
  ASSERT_EQ(std::system((std::string(FIXTURE_BINARY) + " " + raw + " " + GetParam()).c_str()), 0);
  std::ifstream in(raw);
  RawTrace trace;
  std::string error;
  ASSERT_TRUE(readRawTrace(in, trace, error)) << error;
  ASSERT_EQ(trace.sites.size(), 1u);

  unsigned want = 0, lineNo = 0;
  std::ifstream source(FIXTURE_SOURCE);
  for (std::string line; std::getline(source, line);)
    if (++lineNo && line.find("// CALL-SITE") != std::string::npos)
      want = lineNo;
  ASSERT_NE(want, 0u);

  SiteResolver resolver;
  auto site = resolver.resolve(trace, trace.sites[0]);
  ASSERT_TRUE(site);
  EXPECT_EQ(site->file, FIXTURE_SOURCE);
  EXPECT_EQ(site->line, want);
  EXPECT_EQ(site->function, "userCode()");
}

INSTANTIATE_TEST_SUITE_P(Unwinders, SymbolizeFixture,
                         ::testing::Values("libunwind", "libgcc"));
