// -Xcompiler VALUE as nvcc splits it: on unescaped commas, then as the shell
// splits the host compiler's command line (blanks, quotes). Each row was
// checked with `nvcc --dryrun` (CUDA 13.0); NvccAgrees re-checks them all
// against the nvcc on this machine when there is one.
#include "analyzer/compiledb/TranslationParts.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"

#include "tests/compiledb/TempDir.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace streamlint::compiledb {
namespace {

struct SplitCase {
  const char *name;
  std::string value;                  // as it reaches nvcc, one argument
  std::vector<std::string> expected;  // the host compiler's arguments
};

const SplitCase kCases[] = {
    {"Comma", "-Wa,-Wb", {"-Wa", "-Wb"}},
    {"Blank", "-Wa -Wb", {"-Wa", "-Wb"}},
    {"BlanksAndCommas", "-Wa  -Wb,-Wc", {"-Wa", "-Wb", "-Wc"}},
    {"EmptyElement", "-Wa,,-Wb", {"-Wa", "-Wb"}},
    {"DoubleQuotedBlank", "-DQ=\"x y\"", {"-DQ=x y"}},
    {"SingleQuotedBlank", "-DQ='a b',-Wc", {"-DQ=a b", "-Wc"}},
    {"CommaInsideQuotesStillSplits", "-DQ='a,b'", {"-DQ=a b"}},
    {"EscapedComma", "-DQ=1\\,2,-Wc", {"-DQ=1,2", "-Wc"}},
    {"EscapedBackslashThenComma", "-DQ=a\\\\,b", {"-DQ=a b"}},
    {"EscapedBlankIsABlank", "-DQ=a\\ b", {"-DQ=a", "b"}},
    {"Single", "-fopenmp", {"-fopenmp"}},
};

class HostCompilerOptionList : public ::testing::TestWithParam<SplitCase> {};

TEST_P(HostCompilerOptionList, SplitsAsNvcc) {
  EXPECT_EQ(splitHostCompilerOptions(GetParam().value), GetParam().expected)
      << GetParam().value;
}

INSTANTIATE_TEST_SUITE_P(Values, HostCompilerOptionList,
                         ::testing::ValuesIn(kCases),
                         [](const auto &info) { return std::string(info.param.name); });

/// The host compiler's arguments between two marker flags in the first
/// host-compiler line of `nvcc --dryrun` (the shell command nvcc runs).
std::vector<std::string> nvccHostArgs(const std::string &nvcc,
                                      const std::string &value,
                                      const testing::TempDir &dir) {
  std::string source = dir.path() + "/x.cu";
  std::string output = dir.path() + "/dryrun.txt";
  std::ofstream(source) << "int main() { return 0; }\n";
  std::string object = dir.path() + "/x.o";
  llvm::SmallVector<llvm::StringRef, 16> argv = {
      nvcc, "--dryrun", "-c", source, "-Xcompiler", "-DSTREAMLINT_BEGIN",
      "-Xcompiler", value, "-Xcompiler", "-DSTREAMLINT_END", "-o", object};
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(output),
                                                llvm::StringRef(output)};
  llvm::sys::ExecuteAndWait(nvcc, argv, std::nullopt, redirects);
  std::ifstream in(output);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find("-DSTREAMLINT_BEGIN") == std::string::npos)
      continue;
    llvm::BumpPtrAllocator alloc;
    llvm::StringSaver saver(alloc);
    llvm::SmallVector<const char *, 64> tokens;
    llvm::cl::TokenizeGNUCommandLine(line.substr(line.find("#$ ") + 3), saver,
                                     tokens);
    std::vector<std::string> between;
    bool inside = false;
    for (llvm::StringRef token : tokens) {
      if (token == "-DSTREAMLINT_END")
        return between;
      if (inside)
        between.push_back(token.str());
      inside |= token == "-DSTREAMLINT_BEGIN";
    }
  }
  ADD_FAILURE() << "no host compiler line with the markers in nvcc --dryrun";
  return {};
}

TEST(HostCompilerOptionList, NvccAgrees) {
  std::string nvcc = "/usr/local/cuda/bin/nvcc";
  if (!llvm::sys::fs::can_execute(nvcc))
    GTEST_SKIP() << "no nvcc at " << nvcc;
  testing::TempDir dir;
  for (const SplitCase &row : kCases)
    EXPECT_EQ(nvccHostArgs(nvcc, row.value, dir), row.expected) << row.name;
}

} // namespace
} // namespace streamlint::compiledb
