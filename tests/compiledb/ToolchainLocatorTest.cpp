// Where the toolkit comes from: the command first, then CUDA_PATH, then
// /usr/local/cuda; version and build from the toolkit's own files.
#include "analyzer/compiledb/CompileDatabase.h"
#include "tests/compiledb/TempDir.h"

#include "llvm/Support/FileSystem.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace streamlint {
namespace {
using namespace streamlint::testing;

/// A toolkit on disk with just what the locator reads.
std::string makeToolkit(TempDir &dir, const std::string &name, int version) {
  dir.write(name + "/include/cuda.h",
            "#pragma once\n#define CUDA_VERSION " + std::to_string(version) + "\n");
  dir.write(name + "/bin/nvcc", "");
  llvm::sys::fs::create_directories(dir.path() + "/" + name +
                                    "/dist-info/nvidia_cuda_nvcc-12.4.131.dist-info");
  return dir.path() + "/" + name;
}

TEST(ToolchainLocator, FromNvccPathInCommand) {
  TempDir dir;
  std::string cuda = makeToolkit(dir, "cuda-12.4", 12040);
  CompileEntry entry{"/b", "/b/k.cu", {cuda + "/bin/nvcc", "-c", "k.cu"}};
  Toolchain toolchain = locateToolchain(&entry);
  EXPECT_EQ(toolchain.cudaPath, cuda);
  EXPECT_EQ(toolchain.cudaVersionMajor, 12);
  EXPECT_EQ(toolchain.cudaVersionMinor, 4);
  EXPECT_EQ(toolchain.cudaVersionBuild, 131);
}

TEST(ToolchainLocator, CudaPathFlagWins) {
  TempDir dir;
  std::string first = makeToolkit(dir, "cuda-a", 12040);
  std::string second = makeToolkit(dir, "cuda-b", 12080);
  CompileEntry entry{"/b", "/b/k.cu",
                     {first + "/bin/nvcc", "--cuda-path=" + second, "k.cu"}};
  Toolchain toolchain = locateToolchain(&entry);
  EXPECT_EQ(toolchain.cudaPath, second);
  EXPECT_EQ(toolchain.cudaVersionMinor, 8);
}

TEST(ToolchainLocator, CudaPathEnvironmentWhenCommandNamesNone) {
  TempDir dir;
  std::string cuda = makeToolkit(dir, "cuda-env", 12060);
  const char *old = std::getenv("CUDA_PATH");
  std::string saved = old ? old : "";
  setenv("CUDA_PATH", cuda.c_str(), 1);
  CompileEntry entry{"/b", "/b/a.cpp", {"g++", "-c", "a.cpp"}};
  Toolchain toolchain = locateToolchain(&entry);
  if (old)
    setenv("CUDA_PATH", saved.c_str(), 1);
  else
    unsetenv("CUDA_PATH");
  EXPECT_EQ(toolchain.cudaPath, cuda);
  EXPECT_EQ(toolchain.cudaVersionMinor, 6);
}

TEST(ToolchainLocator, ResourceDirFromBuildExists) {
  Toolchain toolchain = locateToolchain(nullptr);
  EXPECT_EQ(toolchain.clangResourceDir, STREAMLINT_TEST_CLANG_RESOURCE_DIR);
  EXPECT_TRUE(llvm::sys::fs::exists(toolchain.clangResourceDir +
                                    "/include/__clang_cuda_runtime_wrapper.h"));
  for (const auto &problem : toolchain.problems)
    EXPECT_EQ(problem.find("resource directory"), std::string::npos) << problem;
}

TEST(ToolchainLocator, CcclIncludeOnlyForCuda13WithTheDirectory) {
  TempDir dir;
  std::string cuda13 = makeToolkit(dir, "cuda-13", 13000);
  llvm::sys::fs::create_directories(cuda13 + "/include/cccl");
  std::string cuda12 = makeToolkit(dir, "cuda-12", 12080);
  llvm::sys::fs::create_directories(cuda12 + "/include/cccl");
  std::string noCccl = makeToolkit(dir, "cuda-13-bare", 13000);
  for (auto [cuda, expected] : {std::pair{cuda13, true}, std::pair{cuda12, false},
                                std::pair{noCccl, false}}) {
    CompileEntry entry{"/b", "/b/k.cu", {cuda + "/bin/nvcc", "-c", "k.cu"}};
    auto inv = translateForClang(entry, locateToolchain(&entry), {});
    bool found = false;
    for (size_t i = 0; i + 1 < inv.args.size(); ++i)
      found |= inv.args[i] == "-isystem" && inv.args[i + 1] == cuda + "/include/cccl";
    EXPECT_EQ(found, expected) << cuda;
  }
}

} // namespace
} // namespace streamlint
