// gcc/clang entries pass through, minus output, dependency and -Werror flags.
#include "tests/compiledb/TempDir.h"
#include "tests/compiledb/TranslationTestSupport.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

namespace streamlint {
namespace {
using namespace streamlint::testing;

TEST(HostCompilerFlags, GxxEntryKeepsMeaningDropsOutputs) {
  auto inv = translate({"/usr/bin/g++", "-Iinc", "-isystem", "sys", "-DX=1",
                        "-D", "Y", "-O2", "-std=gnu++17", "-Wall", "-Werror",
                        "-Werror=shadow", "-MD", "-MT", "a.o", "-MF", "a.d",
                        "-o", "a.o", "-c", "/src/main.cpp"},
                       "/src/main.cpp");
  std::vector<std::string> expected = {
      "clang++", "-I/build/inc", "-isystem", "/build/sys", "-DX=1", "-DY",
      "-O2", "-std=gnu++17", "-Wall", "-resource-dir=/fake/resource",
      "-fsyntax-only", "-x", "c++", "/src/main.cpp"};
  EXPECT_EQ(inv.args, expected) << llvm::join(inv.args, " ");
  EXPECT_FALSE(inv.isCuda);
  EXPECT_TRUE(inv.droppedFlags.empty());
}

// -include/-imacros as gcc finds them: the working directory first (made
// absolute there), else left for the #include "..." chain of -I directories.
TEST(HostCompilerFlags, ForcedIncludeWorkingDirectoryFirstThenSearchPath) {
  TempDir dir;
  std::string here = dir.write("here.h", "");
  for (const char *compiler : {"/usr/bin/g++", "nvcc"}) {
    CompileEntry entry{dir.path(), dir.path() + "/a.cu",
                       {compiler, "-include", "here.h", "-include",
                        "elsewhere.h", "-Xcompiler", "-imacros,here.h",
                        "-c", "a.cu"}};
    auto inv = translateForClang(entry, fakeToolchain(), {});
    std::string all = llvm::join(inv.args, " ");
    EXPECT_TRUE(hasSequence(inv.args, {"-include", here})) << all;
    EXPECT_TRUE(hasSequence(inv.args, {"-include", "elsewhere.h"})) << all;
    if (llvm::StringRef(compiler) == "nvcc")
      EXPECT_TRUE(hasSequence(inv.args, {"-imacros", here})) << all;
  }
}

TEST(HostCompilerFlags, CFileIsC) {
  auto inv = translate({"/usr/bin/cc", "-c", "main.c"}, "/build/main.c");
  EXPECT_TRUE(hasSequence(inv.args, {"-x", "c", "/build/main.c"}));
}

TEST(HostCompilerFlags, ClangCudaEntryUsesLocatedToolkit) {
  auto inv = translate({"clang++", "-x", "cuda", "--cuda-gpu-arch=sm_80",
                        "--cuda-path=/other/cuda", "-c", "/src/kernel.cu"});
  EXPECT_TRUE(inv.isCuda);
  EXPECT_EQ(countPrefix(inv.args, "--cuda-gpu-arch="), 1u);
  EXPECT_TRUE(hasSequence(inv.args, {"--cuda-gpu-arch=sm_80"}));
  EXPECT_EQ(countPrefix(inv.args, "--cuda-path="), 1u);
  EXPECT_TRUE(hasSequence(inv.args, {"--cuda-path=/fake/cuda"}));
  // Built with clang, it needs none of nvcc's implicit additions.
  EXPECT_TRUE(inv.virtualFiles.empty());
  EXPECT_FALSE(mentions(inv.args, "__CUDACC_VER_MAJOR__"));
}

TEST(HostCompilerFlags, SecondInputIsDropped) {
  auto inv = translate({"g++", "-c", "main.cpp", "other.cpp"}, "/build/main.cpp");
  EXPECT_EQ(inv.droppedFlags, std::vector<std::string>{"other.cpp"});
  EXPECT_EQ(countPrefix(inv.args, "/build/"), 1u);
}

TEST(OutputLayout, ExtraArgsAndToolchainFlags) {
  TranslateOptions options;
  options.extraArgsBefore = {"-DBEFORE"};
  options.extraArgs = {"-DAFTER"};
  auto inv = translate({"/usr/local/cuda/bin/nvcc", "-x", "cu", "-c",
                        "/src/kernel.cu"},
                       "/src/kernel.cu", options);
  ASSERT_GE(inv.args.size(), 5u);
  EXPECT_EQ(inv.args[0], "clang++");
  EXPECT_EQ(inv.args[1], "-DBEFORE");
  size_t n = inv.args.size();
  EXPECT_EQ(inv.args[n - 4], "-DAFTER");
  EXPECT_EQ(inv.args[n - 3], "-x");
  EXPECT_EQ(inv.args[n - 2], "cuda");
  EXPECT_EQ(inv.args[n - 1], "/src/kernel.cu");
  for (const char *flag : {"--cuda-host-only", "--cuda-path=/fake/cuda",
                           "-resource-dir=/fake/resource",
                           "-Wno-unknown-cuda-version", "-fsyntax-only"})
    EXPECT_TRUE(hasSequence(inv.args, {flag})) << flag;
  EXPECT_EQ(inv.file, "/src/kernel.cu");
  EXPECT_EQ(inv.directory, "/build");
}

TEST(OutputLayout, HostAndDeviceWhenNotHostOnly) {
  TranslateOptions options;
  options.hostOnly = false;
  auto inv = translate({"nvcc", "-c", "/src/kernel.cu"}, "/src/kernel.cu", options);
  EXPECT_FALSE(mentions(inv.args, "--cuda-host-only"));
}

TEST(HostShims, VersionMacrosAndForcedInclude) {
  auto inv = translate({"nvcc", "-c", "/src/kernel.cu"}, "/src/kernel.cu", {},
                       fakeToolchain(12, 4));
  EXPECT_TRUE(hasSequence(inv.args, {"-D__CUDACC_VER_MAJOR__=12"}));
  EXPECT_TRUE(hasSequence(inv.args, {"-D__CUDACC_VER_MINOR__=4"}));
  EXPECT_TRUE(hasSequence(inv.args, {"-D__CUDACC_VER_BUILD__=88"}));
  ASSERT_EQ(inv.virtualFiles.size(), 1u);
  const auto &[path, text] = inv.virtualFiles[0];
  EXPECT_EQ(path.rfind(kVirtualShimDir, 0), 0u) << path;
  EXPECT_TRUE(hasSequence(inv.args, {"-include", path}));
  EXPECT_NE(text.find("int min(const int a, const int b)"), std::string::npos);
  EXPECT_NE(text.find("double max(const float a, const double b)"),
            std::string::npos);
}

} // namespace
} // namespace streamlint
