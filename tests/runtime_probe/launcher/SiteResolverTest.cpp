#include "SiteResolver.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <dlfcn.h>
#include <unistd.h>
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

// A library that carries its own line tables (NCCL's wheel) never takes the
// site: the program's call into it does, named after the library's entry
// point; the program's frames further out are kept for the merge.
TEST(SiteResolver, PlacesLibraryCallsAtTheProgramsCallAndNamesThem) {
  SourceFrame nccl{"/dvs/p4/build/sw/gpgpu/nccl/src/enqueue.cc", 1701, "ncclLaunchPrepare"};
  nccl.library = "NCCL";
  SourceFrame entry{"", 0, "pncclGroupEnd"};
  entry.library = "NCCL";
  SourceFrame libc{"", 0, "__libc_start_call_main"};
  libc.library = "C/C++ runtime";
  std::vector<SourceFrame> frames = {
      {"", 0, "cudaEventRecord"}, nccl, entry,
      {"/src/ar.cu", 41, "_Z6reducev"}, {"/src/ar.cu", 60, "main"}, libc};
  bool libraryOnly = true;
  auto site = pickCallSite(frames, &libraryOnly);
  ASSERT_TRUE(site);
  EXPECT_FALSE(libraryOnly);
  EXPECT_EQ(site->file, "/src/ar.cu");
  EXPECT_EQ(site->line, 41u);
  EXPECT_EQ(site->libraryCall, "ncclGroupEnd");
  EXPECT_EQ(site->library, "NCCL");
  ASSERT_EQ(site->callers.size(), 1u);
  EXPECT_EQ(site->callers[0].line, 60u);
  EXPECT_EQ(site->callers[0].function, "main");

  // A library's own thread (NCCL's proxy): no frame of the program.
  auto none = pickCallSite({{"", 0, "cudaMemcpyAsync"}, nccl, libc}, &libraryOnly);
  EXPECT_FALSE(none);
  EXPECT_TRUE(libraryOnly);
}

// Code inlined from a framework's installed headers (ATen's inline
// wrappers) is the framework's: the extension's line is the site.
TEST(SiteResolver, FrameworkHeadersAreTheFrameworks) {
  EXPECT_EQ(frameworkHeaderLibrary(
                "/usr/lib/python3/site-packages/torch/include/ATen/ops/empty.h"),
            "PyTorch");
  EXPECT_EQ(frameworkHeaderLibrary("/usr/include/c++/12/bits/std_function.h"),
            "the C++ library");
  EXPECT_EQ(frameworkHeaderLibrary("/home/me/ext/ext.cu"), "");
  SourceFrame inlined{"/venv/lib/python3.12/site-packages/torch/include/ATen/ops/empty.h", 9,
                      "_ZN2at5emptyEN3c108ArrayRefIlEENS0_13TensorOptionsE"};
  inlined.library = frameworkHeaderLibrary(inlined.file);
  SourceFrame allocator{"", 0, "_ZN3c104cuda20CUDACachingAllocator6mallocEv"};
  allocator.library = "PyTorch";
  auto site = pickCallSite({{"", 0, "cudaMalloc"}, allocator, inlined,
                            {"/home/me/ext/ext.cu", 37, "_Z4gemmN2at6TensorE"}});
  ASSERT_TRUE(site);
  EXPECT_EQ(site->line, 37u);
  EXPECT_EQ(site->libraryCall, "at::empty");
}

TEST(SiteResolver, NamesLibraryCallsAsTheProgramWroteThem) {
  EXPECT_EQ(libraryCallName("cublasCreate_v2"), "cublasCreate");
  EXPECT_EQ(libraryCallName("cublasDestroy_v2"), "cublasDestroy");
  EXPECT_EQ(libraryCallName("pncclAllReduce"), "ncclAllReduce");
  EXPECT_EQ(libraryCallName("ncclGroupEnd"), "ncclGroupEnd");
  EXPECT_EQ(libraryCallName("cufftExecC2C"), "cufftExecC2C");
  EXPECT_EQ(libraryCallName("_ZN2at5emptyEN3c108ArrayRefIlEENS0_13TensorOptionsE"),
            "at::empty");
  EXPECT_EQ(libraryCallName("_ZN3c104cuda20CUDACachingAllocator3getEv"),
            "c10::cuda::CUDACachingAllocator::get");
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

// A library call is named from the library's exported symbols (no debug
// info): here libc's getpid, at an address inside it.
TEST(SiteResolver, NamesAFunctionFromALibrarysExportedSymbols) {
  Dl_info info{};
  ASSERT_NE(dladdr(reinterpret_cast<void *>(&getpid), &info), 0);
  ASSERT_NE(info.dli_saddr, nullptr);
  std::uintptr_t inFile = reinterpret_cast<std::uintptr_t>(info.dli_saddr) -
                          reinterpret_cast<std::uintptr_t>(info.dli_fbase) + 1;
  LibrarySymbols symbols;
  EXPECT_NE(symbols.functionAt(info.dli_fname, inFile).find("getpid"), std::string::npos)
      << symbols.functionAt(info.dli_fname, inFile);
  EXPECT_EQ(symbols.functionAt("/nonexistent/libfoo.so", 0x1000), "");
}
