// Each nvcc translation rule (docs/compile-database.md), one table row per
// spelling.
#include "tests/compiledb/TranslationTestSupport.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

namespace streamlint {
namespace {
using namespace streamlint::testing;

const std::string kNvcc = "/usr/local/cuda/bin/nvcc";

std::vector<std::string> nvcc(std::vector<std::string> flags,
                              const std::string &file = "/src/kernel.cu") {
  flags.insert(flags.begin(), kNvcc);
  flags.push_back("-c");
  flags.push_back(file);
  return flags;
}

struct PresentCase {
  const char *name;
  std::vector<std::string> flags;
  std::vector<std::string> expected; // consecutive in the output
};

class NvccPresent : public ::testing::TestWithParam<PresentCase> {};

TEST_P(NvccPresent, TranslatesTo) {
  auto inv = translate(nvcc(GetParam().flags));
  EXPECT_TRUE(hasSequence(inv.args, GetParam().expected))
      << llvm::join(inv.args, " ");
  EXPECT_TRUE(inv.droppedFlags.empty()) << llvm::join(inv.droppedFlags, " ");
}

INSTANTIATE_TEST_SUITE_P(
    Rules, NvccPresent,
    ::testing::Values(
        PresentCase{"LanguageCu", {"-x", "cu"}, {"-x", "cuda", "/src/kernel.cu"}},
        PresentCase{"CuWithoutX", {}, {"-x", "cuda", "/src/kernel.cu"}},
        PresentCase{"Gencode", {"-gencode", "arch=compute_80,code=sm_80"}, {"--cuda-gpu-arch=sm_80"}},
        PresentCase{"GenerateCodeCMake", {"--generate-code=arch=compute_75,code=[compute_75,sm_75]"}, {"--cuda-gpu-arch=sm_75"}},
        PresentCase{"ArchEquals", {"-arch=sm_86"}, {"--cuda-gpu-arch=sm_86"}},
        PresentCase{"ArchSeparate", {"-arch", "sm_70"}, {"--cuda-gpu-arch=sm_70"}},
        PresentCase{"GpuArchitectureVirtual", {"--gpu-architecture=compute_80"}, {"--cuda-gpu-arch=sm_80"}},
        PresentCase{"CodeArchSpecific", {"-code=sm_90a"}, {"--cuda-gpu-arch=sm_90a"}},
        PresentCase{"FamilySuffixDropped", {"-arch=sm_100f"}, {"--cuda-gpu-arch=sm_100"}},
        PresentCase{"NewestOfMany", {"-gencode=arch=compute_90,code=sm_90", "-gencode=arch=compute_75,code=sm_75"}, {"--cuda-gpu-arch=sm_90"}},
        PresentCase{"ArchNativeDefaults", {"-arch=native"}, {"--cuda-gpu-arch=sm_75"}},
        PresentCase{"ArchAllDefaults", {"-arch=all"}, {"--cuda-gpu-arch=sm_75"}},
        PresentCase{"ArchAllMajorDefaults", {"-arch=all-major"}, {"--cuda-gpu-arch=sm_75"}},
        PresentCase{"XcompilerList", {"-Xcompiler", "-fPIC,-Wall"}, {"-fPIC", "-Wall"}},
        PresentCase{"XcompilerEquals", {"-Xcompiler=-fopenmp"}, {"-fopenmp"}},
        PresentCase{"XcompilerBlankList", {"-Xcompiler", "-fPIC -Wall"}, {"-fPIC", "-Wall"}},
        PresentCase{"XcompilerEqualsList", {"-Xcompiler=-fPIC,-pthread"}, {"-fPIC", "-pthread"}},
        PresentCase{"CompilerOptions", {"--compiler-options", "-pthread"}, {"-pthread"}},
        PresentCase{"XcompilerInclude", {"-Xcompiler", "-Iinc"}, {"-I/build/inc"}},
        PresentCase{"RdcTrue", {"-rdc=true"}, {"-fgpu-rdc"}},
        PresentCase{"RdcSeparate", {"--relocatable-device-code", "true"}, {"-fgpu-rdc"}},
        PresentCase{"Dc", {"-dc"}, {"-fgpu-rdc"}},
        PresentCase{"RelaxedConstexpr", {"--expt-relaxed-constexpr"}, {"-D__CUDACC_RELAXED_CONSTEXPR__"}},
        PresentCase{"ExtendedLambda", {"--extended-lambda"}, {"-D__CUDACC_EXTENDED_LAMBDA__"}},
        PresentCase{"ExptExtendedLambda", {"-expt-extended-lambda"}, {"-D__CUDACC_EXTENDED_LAMBDA__"}},
        PresentCase{"IsystemEquals", {"-isystem=/opt/inc"}, {"-isystem", "/opt/inc"}},
        PresentCase{"IsystemRelative", {"-isystem", "third_party"}, {"-isystem", "/build/third_party"}},
        PresentCase{"IncludeAttachedRelative", {"-I../inc"}, {"-I/inc"}},
        PresentCase{"IncludeSeparate", {"-I", "inc"}, {"-I/build/inc"}},
        PresentCase{"IncludePathLong", {"--include-path=inc"}, {"-I/build/inc"}},
        PresentCase{"DefineAttached", {"-DFOO=1"}, {"-DFOO=1"}},
        PresentCase{"DefineSeparate", {"-D", "FOO"}, {"-DFOO"}},
        PresentCase{"DefineLong", {"--define-macro=BAR=2"}, {"-DBAR=2"}},
        PresentCase{"Undefine", {"-UBAR"}, {"-UBAR"}},
        PresentCase{"StdEquals", {"-std=c++17"}, {"-std=c++17"}},
        PresentCase{"StdSeparate", {"--std", "c++14"}, {"-std=c++14"}},
        // Not in the working directory (/build): left for clang's -I search.
        PresentCase{"PreInclude", {"-include", "pre.h"}, {"-include", "pre.h"}},
        PresentCase{"PreIncludeAbsolute", {"-include", "/inc/pre.h"}, {"-include", "/inc/pre.h"}},
        PresentCase{"Optimize", {"-O3"}, {"-O3"}},
        PresentCase{"M64", {"-m64"}, {"-m64"}},
        PresentCase{"ForwardedHostFlag", {"-forward-unknown-to-host-compiler", "-fopenmp"}, {"-fopenmp"}},
        PresentCase{"ForwardedAfterTheFlag", {"-pthread", "-forward-unknown-to-host-compiler"}, {"-pthread"}}),
    [](const auto &info) { return std::string(info.param.name); });

struct DropCase {
  const char *name;
  std::vector<std::string> flags;
  std::vector<std::string> forbidden; // must appear in no output argument
};

class NvccDrop : public ::testing::TestWithParam<DropCase> {};

TEST_P(NvccDrop, NeverReachesClang) {
  auto inv = translate(nvcc(GetParam().flags));
  for (const auto &text : GetParam().forbidden)
    EXPECT_FALSE(mentions(inv.args, text)) << text << " in "
                                           << llvm::join(inv.args, " ");
  EXPECT_TRUE(inv.droppedFlags.empty()) << llvm::join(inv.droppedFlags, " ");
  EXPECT_EQ(inv.args.back(), "/src/kernel.cu");
}

INSTANTIATE_TEST_SUITE_P(
    Rules, NvccDrop,
    ::testing::Values(
        DropCase{"ForwardUnknown", {"-forward-unknown-to-host-compiler"}, {"forward"}},
        DropCase{"Ccbin", {"-ccbin", "/usr/bin/g++-12"}, {"ccbin", "g++-12"}},
        DropCase{"CcbinEquals", {"-ccbin=/usr/bin/g++-12"}, {"ccbin", "g++-12"}},
        DropCase{"Xptxas", {"-Xptxas", "-v,-O3"}, {"Xptxas", "-v,-O3"}},
        DropCase{"XptxasEquals", {"-Xptxas=-warn-spills"}, {"ptxas", "spills"}},
        DropCase{"Xnvlink", {"-Xnvlink", "--suppress-stack-size-warning"}, {"nvlink", "stack-size"}},
        DropCase{"Xfatbin", {"-Xfatbin", "-compress-all"}, {"fatbin", "compress"}},
        DropCase{"FastMath", {"--use_fast_math"}, {"fast_math"}},
        DropCase{"Lineinfo", {"-lineinfo"}, {"lineinfo"}},
        DropCase{"DeviceDebug", {"-G"}, {"-G"}},
        DropCase{"Keep", {"--keep"}, {"keep"}},
        DropCase{"DependencyFiles", {"-MD", "-MT", "k.o", "-MF", "k.d"}, {"-MD", "-MT", "k.o", "-MF", "k.d"}},
        DropCase{"Output", {"-o", "out/k.o"}, {"out/k.o"}},
        DropCase{"DiagSuppress", {"--diag-suppress", "177,550"}, {"diag", "177"}},
        DropCase{"DiagSuppressUnderscore", {"--diag_suppress=177"}, {"diag", "177"}},
        DropCase{"WerrorAllWarnings", {"-Werror", "all-warnings"}, {"Werror", "all-warnings"}},
        DropCase{"WerrorEquals", {"--Werror=cross-execution-space-call"}, {"Werror", "cross"}},
        DropCase{"NvccWarning", {"-Wno-deprecated-gpu-targets"}, {"deprecated-gpu"}},
        DropCase{"HostWerror", {"-Xcompiler", "-Werror,-Wall"}, {"-Werror"}},
        DropCase{"ArchNative", {"-arch=native"}, {"native", "march"}},
        DropCase{"ArchAllMajor", {"-arch", "all-major"}, {"all-major"}},
        DropCase{"Cudart", {"-cudart", "shared"}, {"cudart", "shared"}},
        DropCase{"Maxrregcount", {"-maxrregcount=32"}, {"maxrreg", "32"}},
        DropCase{"Libraries", {"-lcublas", "-L/opt/lib"}, {"cublas", "/opt/lib"}},
        DropCase{"LegacyStream", {"--default-stream", "legacy"}, {"PER_THREAD", "legacy"}},
        DropCase{"RdcFalse", {"-rdc=false"}, {"rdc", "gpu-rdc"}}),
    [](const auto &info) { return std::string(info.param.name); });

struct StreamCase {
  const char *name;
  std::vector<std::string> flags;
  bool perThread;
};

class DefaultStream : public ::testing::TestWithParam<StreamCase> {};

TEST_P(DefaultStream, SetsPerThreadDefaultStream) {
  auto inv = translate(nvcc(GetParam().flags));
  EXPECT_EQ(inv.perThreadDefaultStream, GetParam().perThread)
      << llvm::join(inv.args, " ");
  if (GetParam().perThread)
    EXPECT_TRUE(mentions(inv.args, "-DCUDA_API_PER_THREAD_DEFAULT_STREAM"));
}

INSTANTIATE_TEST_SUITE_P(
    Spellings, DefaultStream,
    ::testing::Values(
        StreamCase{"LongSeparate", {"--default-stream", "per-thread"}, true},
        StreamCase{"LongEquals", {"--default-stream=per-thread"}, true},
        StreamCase{"ShortSeparate", {"-default-stream", "per-thread"}, true},
        StreamCase{"ShortEquals", {"-default-stream=per-thread"}, true},
        StreamCase{"Legacy", {"--default-stream", "legacy"}, false},
        StreamCase{"Null", {"-default-stream=null"}, false},
        StreamCase{"None", {}, false},
        StreamCase{"MacroDefined", {"-DCUDA_API_PER_THREAD_DEFAULT_STREAM"}, true},
        StreamCase{"MacroZeroStillDefined", {"-DCUDA_API_PER_THREAD_DEFAULT_STREAM=0"}, true},
        StreamCase{"MacroThroughXcompiler", {"-Xcompiler", "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"}, true},
        StreamCase{"MacroUndefinedLater", {"--default-stream=per-thread", "-UCUDA_API_PER_THREAD_DEFAULT_STREAM"}, false},
        StreamCase{"OtherMacro", {"-DCUDA_API_PER_THREAD_DEFAULT_STREAM_X=1"}, false}),
    [](const auto &info) { return std::string(info.param.name); });

TEST(NvccTranslation, ExactlyOneGpuArch) {
  auto inv = translate(nvcc({"--generate-code=arch=compute_75,code=[compute_75,sm_75]",
                             "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
                             "-arch=sm_86"}));
  EXPECT_EQ(countPrefix(inv.args, "--cuda-gpu-arch="), 1u);
  EXPECT_TRUE(hasSequence(inv.args, {"--cuda-gpu-arch=sm_86"}));
}

TEST(NvccTranslation, DefaultArchFollowsToolkitVersion) {
  auto inv = translate(nvcc({}), "/src/kernel.cu", {}, fakeToolchain(12, 4));
  EXPECT_TRUE(hasSequence(inv.args, {"--cuda-gpu-arch=sm_52"}));
}

TEST(NvccTranslation, UnknownFlagsAreDroppedAndRecorded) {
  auto inv = translate(nvcc({"--frobnicate", "-fPIC"}));
  EXPECT_FALSE(mentions(inv.args, "frobnicate"));
  EXPECT_FALSE(mentions(inv.args, "-fPIC"));
  EXPECT_EQ(inv.droppedFlags,
            (std::vector<std::string>{"--frobnicate", "-fPIC"}));
}

TEST(NvccTranslation, CppFileIsHostCodeWithToolkitIncludes) {
  auto inv = translate(nvcc({}, "/src/main.cpp"), "/src/main.cpp");
  EXPECT_FALSE(inv.isCuda);
  EXPECT_TRUE(hasSequence(inv.args, {"-x", "c++", "/src/main.cpp"}));
  EXPECT_TRUE(hasSequence(inv.args, {"-isystem", "/fake/cuda/include"}));
  EXPECT_FALSE(mentions(inv.args, "--cuda-"));
  EXPECT_TRUE(inv.virtualFiles.empty());
}

TEST(NvccTranslation, CuhEntryIsCuda) {
  auto inv = translate(nvcc({}, "/src/util.cuh"), "/src/util.cuh");
  EXPECT_TRUE(inv.isCuda);
  EXPECT_TRUE(hasSequence(inv.args, {"-x", "cuda", "/src/util.cuh"}));
}

TEST(NvccTranslation, LauncherIsSkipped) {
  auto args = nvcc({"--default-stream", "per-thread"});
  args.insert(args.begin(), "/usr/bin/ccache");
  auto inv = translate(args);
  EXPECT_TRUE(inv.perThreadDefaultStream);
  EXPECT_EQ(inv.args.front(), "clang++");
  EXPECT_FALSE(mentions(inv.args, "ccache"));
}

} // namespace
} // namespace streamlint
