// A CMake-style nvcc command, translated, parsed by the real clang++-22
// against the real CUDA toolkit. Proves the shims and the translation work on
// real headers (CCCL, host min/max, PTDS macros), not just on strings.
// Exits 77 (skipped) when /usr/local/cuda or clang++-22 is absent.
#include "analyzer/compiledb/CompileDatabase.h"
#include "analyzer/compiledb/TranslationParts.h"
#include "bench/parse_rate/ClangSubprocess.h"
#include "tests/compiledb/TempDir.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"

#include <gtest/gtest.h>

namespace streamlint {
namespace {
using namespace streamlint::testing;

constexpr const char *kCuda = "/usr/local/cuda";

constexpr const char *kKernel = R"(#include <cuda_runtime.h>
#include <cuda/std/type_traits>   // CCCL: needs <cuda>/include/cccl on CUDA 13
#include "shared.h"               // from the options file, a path with a space
#include <vendor.h>               // -isystem=DIR in the options file
static_assert(__CUDACC_VER_MAJOR__ >= 12, "nvcc's version macros");
#ifndef __CUDACC_EXTENDED_LAMBDA__
#error "--extended-lambda lost"
#endif
#if !defined(cudaMemcpyAsync)
#error "--default-stream per-thread lost: no _ptsz macros"
#endif
__global__ void scale(float *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < min(n, SHARED_LIMIT)) data[i] *= VENDOR_SCALE;
}
int hostBounds(int a, unsigned b, long c, float x, double y) {
  // nvcc's CRT gives host code these overloads; clang's headers do not.
  return min(a, 3) + (int)max(b, 2u) + (int)min(c, 4L) + (int)max(x, y) +
         (cuda::std::is_same<int, int>::value ? 1 : 0);
}
void launch(float *data, int n, cudaStream_t stream) {
  scale<<<(n + 255) / 256, 256, 0, stream>>>(data, n);
  cudaMemcpyAsync(data, data, n * sizeof(float), cudaMemcpyDeviceToDevice, stream);
}
)";

class RealToolkit : public ::testing::TestWithParam<bool> {};

TEST_P(RealToolkit, TranslatedCMakeNvccCommandParsesCleanly) {
  TempDir dir;
  std::string source = dir.write("src/kernel.cu", kKernel);
  dir.write("inc dir/shared.h", "#pragma once\n#define SHARED_LIMIT 1024\n");
  dir.write("build/CMakeFiles/kernel.rsp",
            "-I\"" + dir.path() + "/inc dir\" -isystem=\"" + dir.path() +
                "/sys inc\"\n");
  dir.write("sys inc/vendor.h", "#pragma once\n#define VENDOR_SCALE 2.0f\n");
  CompileEntry entry{
      dir.path() + "/build",
      source,
      {std::string(kCuda) + "/bin/nvcc", "-forward-unknown-to-host-compiler",
       "-ccbin=/usr/bin/g++", "--options-file", "CMakeFiles/kernel.rsp", "-O3",
       "-DNDEBUG", "-std=c++17",
       "--generate-code=arch=compute_75,code=[compute_75,sm_75]",
       "--generate-code=arch=compute_90,code=[compute_90,sm_90]", "-rdc=true",
       "--extended-lambda", "--expt-relaxed-constexpr", "--default-stream",
       "per-thread", "-Xcompiler=-fPIC", "-Xcompiler", "-Wall,-Wextra",
       "-lineinfo", "--use_fast_math", "-Xptxas", "-v", "-Werror",
       "all-warnings", "-MD", "-MT", "kernel.o", "-MF", "kernel.d", "-x", "cu",
       "-c", source, "-o", "kernel.o"}};
  Toolchain toolchain = locateToolchain(&entry);
  ASSERT_EQ(toolchain.cudaPath, kCuda);
  TranslateOptions options;
  options.hostOnly = GetParam();
  ClangInvocation inv = translateForClang(entry, toolchain, options);
  EXPECT_TRUE(inv.perThreadDefaultStream);
  EXPECT_TRUE(inv.droppedFlags.empty()) << llvm::join(inv.droppedFlags, " ");
  bench::ClangRun run = bench::runClang("clang++-22", inv);
  ASSERT_TRUE(run.failure.empty()) << run.failure;
  EXPECT_EQ(run.exitCode, 0) << llvm::join(inv.args, " ");
  EXPECT_TRUE(run.errors.empty()) << llvm::join(run.errors, "\n");
}

INSTANTIATE_TEST_SUITE_P(Passes, RealToolkit, ::testing::Values(true, false),
                         [](const auto &info) {
                           return info.param ? "HostOnly" : "HostAndDevice";
                         });

// What nvcc's front end and host compiler give a TU without its asking
// (issue seen on karpathy/llm.c and ggml: 22 of 22 nvcc-clean TUs failed).
constexpr const char *kNvccEnvironment = R"(#include <cuda_runtime.h>
#include <omp.h>   // gcc's own include directory, found by nvcc's host compiler
static_assert(__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 == CUDA_VERSION,
              "nvcc's version macros, read from the toolkit in use");
#if __CUDACC__ != 1   // nvcc's value; NCCL's device headers test `#if __CUDACC__`
#error "__CUDACC__ is not 1"
#endif
__global__ void store(float *out, float4 *out4, double *outd, float value) {
  __stcs(out, value);                       // float overloads clang lacks
  __stcg(out + 1, value);
  __stwb(outd, 2.0);
  __stcs(out4, make_float4(value, value, value, value));
  out[2] = __ldlu(out) + __ldca(out);
}
// nvcc's atomic builtins (CUDA 12.8+) and their enums from crt/device_functions.h.
__device__ unsigned long long bump(unsigned long long *counter, long long *value) {
  long long seen = __nv_atomic_load_n(value, __NV_ATOMIC_RELAXED);
  __nv_atomic_compare_exchange_n(value, &seen, seen + 1, false, __NV_ATOMIC_ACQ_REL,
                                 __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_BLOCK);
  return __nv_atomic_fetch_add(counter, 1, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
}
template <class T> int countFinite(const T *values, int n) {
  int finite = 0;
  for (int i = 0; i < n; ++i)
    finite += isfinite(values[i]) ? 1 : 0;  // global isfinite, no <math.h>
  return finite;
}
long elapsed() { return (long)clock(); }    // clock, no <time.h>
int threads() { return omp_get_max_threads(); }
int run(float *d, const float *h, int n) {
  store<<<1, 1>>>(d, nullptr, nullptr, 1.0f);
  return countFinite(h, n) + countFinite((const double *)nullptr, 0);
}
)";

bool hostCompilerHasOmp() {
  auto gxx = llvm::sys::findProgramByName("g++");
  if (!gxx)
    return false;
  for (const std::string &dir : compiledb::hostCompilerIncludeDirs(*gxx))
    if (llvm::sys::fs::exists(dir + "/omp.h"))
      return true;
  return false;
}

TEST_P(RealToolkit, NvccHostEnvironmentIsProvided) {
  if (!hostCompilerHasOmp())
    GTEST_SKIP() << "g++ with omp.h needed";
  TempDir dir;
  std::string source = dir.write("src/env.cu", kNvccEnvironment);
  CompileEntry entry{dir.path(), source,
                     {std::string(kCuda) + "/bin/nvcc", "-std=c++17", "-O3",
                      "-Xcompiler", "-fopenmp", "-c", source, "-o", "env.o"}};
  TranslateOptions options;
  options.hostOnly = GetParam();
  ClangInvocation inv = translateForClang(entry, locateToolchain(&entry), options);
  bench::ClangRun run = bench::runClang("clang++-22", inv);
  ASSERT_TRUE(run.failure.empty()) << run.failure;
  EXPECT_EQ(run.exitCode, 0) << llvm::join(inv.args, " ");
  EXPECT_TRUE(run.errors.empty()) << llvm::join(run.errors, "\n");
}

/// The invocation without the shim header or the host compiler's directories.
ClangInvocation withoutShims(ClangInvocation inv) {
  inv.virtualFiles.clear();
  std::vector<std::string> args;
  for (size_t i = 0; i < inv.args.size(); ++i) {
    bool shim = inv.args[i] == "-include" && i + 1 < inv.args.size() &&
                inv.args[i + 1].rfind(kVirtualShimDir, 0) == 0;
    if (shim || inv.args[i] == "-idirafter") {
      ++i;
      continue;
    }
    args.push_back(inv.args[i]);
  }
  inv.args = args;
  return inv;
}

TEST(RealToolkitShim, WithoutTheShimsNvccOnlyCodeFails) {
  // Guards each shim's reason to exist: if clang ever provides one of these
  // itself, its line here starts passing and that shim can go.
  const char *cases[] = {
      "__global__ void k(float *p) { __stcs(p, 1.0f); }\n",
      "template <class T> bool f(T x) { return isfinite(x); }\n"
      "bool g() { return f(1.0f); }\n",
      "long t() { return (long)clock(); }\n",
      "__device__ int f(int *p) { return __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED); }\n",
  };
  for (const char *code : cases) {
    TempDir dir;
    std::string source = dir.write("k.cu", std::string("#include <cuda_runtime.h>\n") + code);
    CompileEntry entry{dir.path(), source,
                       {std::string(kCuda) + "/bin/nvcc", "-c", source}};
    ClangInvocation inv = translateForClang(entry, locateToolchain(&entry), {});
    bench::ClangRun with = bench::runClang("clang++-22", inv);
    EXPECT_EQ(with.exitCode, 0) << code << llvm::join(with.errors, "\n");
    bench::ClangRun without = bench::runClang("clang++-22", withoutShims(inv));
    EXPECT_NE(without.exitCode, 0) << code;
  }
}

TEST(RealToolkitShim, WithoutTheShimHostMinFails) {
  // Guards the shim's reason to exist: if clang ever declares host min/max
  // itself, this fails and the shim can go.
  TempDir dir;
  std::string source = dir.write("k.cu", "int f(int a) { return min(a, 3); }\n");
  CompileEntry entry{dir.path(), source,
                     {std::string(kCuda) + "/bin/nvcc", "-c", source}};
  ClangInvocation inv = translateForClang(entry, locateToolchain(&entry), {});
  inv.virtualFiles.clear();
  std::vector<std::string> args;
  for (size_t i = 0; i < inv.args.size(); ++i) {
    if (inv.args[i] == "-include" && i + 1 < inv.args.size() &&
        inv.args[i + 1].rfind(kVirtualShimDir, 0) == 0) {
      ++i;
      continue;
    }
    args.push_back(inv.args[i]);
  }
  inv.args = args;
  bench::ClangRun run = bench::runClang("clang++-22", inv);
  EXPECT_NE(run.exitCode, 0);
}

} // namespace
} // namespace streamlint

int main(int argc, char **argv) {
  if (!llvm::sys::fs::exists(std::string(streamlint::kCuda) + "/include/cuda.h") ||
      !llvm::sys::findProgramByName("clang++-22")) {
    std::fprintf(stderr, "skipped: needs %s and clang++-22\n", streamlint::kCuda);
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
