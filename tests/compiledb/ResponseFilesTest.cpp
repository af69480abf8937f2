// @file and nvcc --options-file/-optf, with CMake's quoted include paths.
#include "tests/compiledb/TempDir.h"
#include "tests/compiledb/TranslationTestSupport.h"

#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

namespace streamlint {
namespace {
using namespace streamlint::testing;

struct OptionsFileCase {
  const char *name;
  std::vector<std::string> spelling; // "RSP" stands for the file name
};

class NvccOptionsFile : public ::testing::TestWithParam<OptionsFileCase> {};

TEST_P(NvccOptionsFile, ExpandsQuotedIncludePaths) {
  TempDir dir;
  dir.write("CMakeFiles/k.rsp",
            "-I\"" + dir.path() + "/with space/inc\" -I\"rel/inc\" "
            "-isystem=\"/opt/sys\"\n-DFROM_RSP\n");
  std::vector<std::string> args = {"/usr/local/cuda/bin/nvcc"};
  for (const auto &part : GetParam().spelling)
    args.push_back(part == "RSP" ? "CMakeFiles/k.rsp" : part);
  args.push_back("-c");
  args.push_back(dir.path() + "/k.cu");
  CompileEntry entry{dir.path(), dir.path() + "/k.cu", args};
  auto inv = translateForClang(entry, fakeToolchain(), {});
  EXPECT_TRUE(hasSequence(inv.args, {"-I" + dir.path() + "/with space/inc"}))
      << llvm::join(inv.args, " ");
  EXPECT_TRUE(hasSequence(inv.args, {"-I" + dir.path() + "/rel/inc"}));
  EXPECT_TRUE(hasSequence(inv.args, {"-isystem", "/opt/sys"}));
  EXPECT_TRUE(hasSequence(inv.args, {"-DFROM_RSP"}));
  EXPECT_TRUE(inv.warnings.empty()) << llvm::join(inv.warnings, "; ");
  EXPECT_TRUE(inv.errors.empty()) << llvm::join(inv.errors, "; ");
  EXPECT_TRUE(inv.droppedFlags.empty()) << llvm::join(inv.droppedFlags, " ");
}

INSTANTIATE_TEST_SUITE_P(
    Spellings, NvccOptionsFile,
    ::testing::Values(
        OptionsFileCase{"LongSeparate", {"--options-file", "RSP"}},
        OptionsFileCase{"LongEquals", {"--options-file=CMakeFiles/k.rsp"}},
        OptionsFileCase{"ShortSeparate", {"-optf", "RSP"}},
        OptionsFileCase{"ShortEquals", {"-optf=CMakeFiles/k.rsp"}},
        OptionsFileCase{"AtFile", {"@CMakeFiles/k.rsp"}}),
    [](const auto &info) { return std::string(info.param.name); });

TEST(ResponseFiles, GccAtFileNested) {
  TempDir dir;
  dir.write("outer.rsp", "-DOUTER @inner.rsp");
  dir.write("inner.rsp", "-Iinner");
  CompileEntry entry{dir.path(), dir.path() + "/a.cpp",
                     {"g++", "@outer.rsp", "-c", "a.cpp"}};
  auto inv = translateForClang(entry, fakeToolchain(), {});
  EXPECT_TRUE(hasSequence(inv.args, {"-DOUTER", "-I" + dir.path() + "/inner"}))
      << llvm::join(inv.args, " ");
}

TEST(ResponseFiles, MissingFileIsAnErrorNamingIt) {
  TempDir dir;
  CompileEntry entry{dir.path(), dir.path() + "/k.cu",
                     {"nvcc", "--options-file", "gone.rsp", "-c", "k.cu"}};
  auto inv = translateForClang(entry, fakeToolchain(), {});
  ASSERT_EQ(inv.errors.size(), 1u);
  EXPECT_NE(inv.errors[0].find(dir.path() + "/gone.rsp"), std::string::npos)
      << inv.errors[0];
  EXPECT_NE(inv.errors[0].find("--options-file gone.rsp"), std::string::npos)
      << inv.errors[0];
  EXPECT_NE(inv.errors[0].find("No such file"), std::string::npos) << inv.errors[0];
  EXPECT_FALSE(mentions(inv.args, "gone.rsp"));
}

TEST(ResponseFiles, EveryMissingSpellingIsAnError) {
  TempDir dir;
  for (std::vector<std::string> spelling :
       {std::vector<std::string>{"-optf", "gone.rsp"}, {"--options-file=gone.rsp"},
        {"-optf=gone.rsp"}, {"@gone.rsp"}}) {
    std::vector<std::string> args = {"nvcc", "-c", "k.cu"};
    args.insert(args.begin() + 1, spelling.begin(), spelling.end());
    auto inv = translateForClang({dir.path(), dir.path() + "/k.cu", args},
                                 fakeToolchain(), {});
    ASSERT_EQ(inv.errors.size(), 1u) << llvm::join(spelling, " ");
    EXPECT_NE(inv.errors[0].find(spelling.front()), std::string::npos)
        << inv.errors[0];
  }
}

TEST(ResponseFiles, DirectoryIsAnError) {
  TempDir dir;
  dir.write("flags.rsp/inside", "");
  CompileEntry entry{dir.path(), dir.path() + "/k.cu",
                     {"nvcc", "-optf", "flags.rsp", "-c", "k.cu"}};
  auto inv = translateForClang(entry, fakeToolchain(), {});
  ASSERT_EQ(inv.errors.size(), 1u);
  EXPECT_NE(inv.errors[0].find("directory"), std::string::npos) << inv.errors[0];
}

TEST(ResponseFiles, SelfInclusionStops) {
  TempDir dir;
  dir.write("loop.rsp", "-DLOOP @loop.rsp");
  CompileEntry entry{dir.path(), dir.path() + "/a.cpp",
                     {"g++", "@loop.rsp", "-c", "a.cpp"}};
  auto inv = translateForClang(entry, fakeToolchain(), {});
  ASSERT_EQ(inv.errors.size(), 1u);
  EXPECT_NE(inv.errors[0].find("refers to itself"), std::string::npos)
      << inv.errors[0];
  EXPECT_NE(inv.errors[0].find(dir.path() + "/loop.rsp"), std::string::npos);
  EXPECT_TRUE(hasSequence(inv.args, {"-DLOOP"})) << llvm::join(inv.args, " ");
}

TEST(ResponseFiles, CycleIsNamedWithItsChain) {
  TempDir dir;
  dir.write("a.rsp", "-DA --options-file b.rsp");
  dir.write("b.rsp", "-DB -optf=a.rsp");
  CompileEntry entry{dir.path(), dir.path() + "/k.cu",
                     {"nvcc", "--options-file", "a.rsp", "-c", "k.cu"}};
  auto inv = translateForClang(entry, fakeToolchain(), {});
  ASSERT_EQ(inv.errors.size(), 1u);
  EXPECT_NE(inv.errors[0].find("cycle: " + dir.path() + "/a.rsp -> " +
                               dir.path() + "/b.rsp -> " + dir.path() + "/a.rsp"),
            std::string::npos)
      << inv.errors[0];
}

TEST(ResponseFiles, SameFileTwiceIsNoCycle) {
  TempDir dir;
  dir.write("common.rsp", "-DCOMMON");
  dir.write("a.rsp", "@common.rsp @common.rsp");
  CompileEntry entry{dir.path(), dir.path() + "/a.cpp",
                     {"g++", "@a.rsp", "@common.rsp", "-c", "a.cpp"}};
  auto inv = translateForClang(entry, fakeToolchain(), {});
  EXPECT_TRUE(inv.errors.empty()) << llvm::join(inv.errors, "; ");
}

TEST(ResponseFiles, DeepDistinctNestingStops) {
  TempDir dir;
  for (int i = 0; i < 40; ++i)
    dir.write("r" + std::to_string(i) + ".rsp", "@r" + std::to_string(i + 1) + ".rsp");
  CompileEntry entry{dir.path(), dir.path() + "/a.cpp",
                     {"g++", "@r0.rsp", "-c", "a.cpp"}};
  auto inv = translateForClang(entry, fakeToolchain(), {});
  ASSERT_EQ(inv.errors.size(), 1u);
  EXPECT_NE(inv.errors[0].find("nested too deeply"), std::string::npos);
}

} // namespace
} // namespace streamlint
