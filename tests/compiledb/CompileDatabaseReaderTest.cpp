// Loading compile_commands.json: entries, and every error the user can cause.
#include "analyzer/compiledb/CompileDatabase.h"
#include "tests/compiledb/TempDir.h"

#include <gtest/gtest.h>

namespace streamlint {
namespace {
using namespace streamlint::testing;

std::string loadError(const std::string &path) {
  auto entries = loadCompileDatabase(path);
  if (entries)
    return "(loaded)";
  return llvm::toString(entries.takeError());
}

TEST(CompileDatabaseReader, CommandAndArgumentsForms) {
  TempDir dir;
  dir.write("compile_commands.json", R"([
  {"directory": "/build", "file": "../src/a.cu",
   "command": "nvcc -DNAME=\"a b\" -I'/x y' -c ../src/a.cu"},
  {"directory": "/build", "file": "/src/b.cpp",
   "arguments": ["g++", "-c", "/src/b.cpp"], "output": "b.o"}
])");
  auto entries = loadCompileDatabase(dir.path()); // a directory works
  ASSERT_TRUE(bool(entries)) << llvm::toString(entries.takeError());
  ASSERT_EQ(entries->size(), 2u);
  const CompileEntry &a = (*entries)[0];
  EXPECT_EQ(a.directory, "/build");
  EXPECT_EQ(a.file, "/src/a.cu");
  EXPECT_EQ(a.arguments, (std::vector<std::string>{
                             "nvcc", "-DNAME=a b", "-I/x y", "-c", "../src/a.cu"}));
  EXPECT_EQ((*entries)[1].arguments.size(), 3u);
}

TEST(CompileDatabaseReader, RelativeDirectoryResolvesAgainstDatabase) {
  TempDir dir;
  std::string path = dir.write("compile_commands.json",
      R"([{"directory": "sub", "file": "a.cpp", "arguments": ["g++", "a.cpp"]}])");
  auto entries = loadCompileDatabase(path); // a file works too
  ASSERT_TRUE(bool(entries)) << llvm::toString(entries.takeError());
  EXPECT_EQ((*entries)[0].file, dir.path() + "/sub/a.cpp");
}

struct ErrorCase {
  const char *name;
  const char *json;      // nullptr: no file at all
  const char *expected;  // text the message must contain
};

class ReaderErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ReaderErrors, NameTheProblem) {
  TempDir dir;
  std::string path = dir.path() + "/compile_commands.json";
  if (GetParam().json)
    dir.write("compile_commands.json", GetParam().json);
  std::string message = loadError(dir.path());
  EXPECT_NE(message.find(GetParam().expected), std::string::npos) << message;
  EXPECT_NE(message.find(dir.path()), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, ReaderErrors,
    ::testing::Values(
        ErrorCase{"MissingFile", nullptr, ": no compile_commands.json"},
        ErrorCase{"MalformedLineColumn", "[\n  {\"file\": \"a.cu\",,\n]",
                  "compile_commands.json:2:19: malformed JSON: Expected object key"},
        ErrorCase{"MalformedFirstLine", "[}", "compile_commands.json:1:2: malformed JSON"},
        ErrorCase{"TruncatedAtEnd", "[\n{", "compile_commands.json:2:1: malformed JSON"},
        ErrorCase{"NotAnArray", "{}", "expected a JSON array"},
        ErrorCase{"EmptyArray", "[]", "contains no compile commands"},
        ErrorCase{"EntryNotObject", "[1]", "entry [0]: expected an object"},
        ErrorCase{"MissingFileField",
                  R"([{"directory":"/b","file":"a.c","command":"cc a.c"},
                      {"directory":"/b","command":"cc a.c"}])",
                  "entry [1]: missing \"file\""},
        ErrorCase{"MissingDirectory", R"([{"file":"a.c","command":"cc a.c"}])",
                  "entry [0]: missing \"directory\""},
        ErrorCase{"MissingCommand", R"([{"directory":"/b","file":"a.c"}])",
                  "entry [0]: missing \"arguments\" array or \"command\""},
        ErrorCase{"EmptyCommand", R"([{"directory":"/b","file":"a.c","command":"  "}])",
                  "entry [0]: empty command"},
        ErrorCase{"NonStringArgument",
                  R"([{"directory":"/b","file":"a.c","arguments":["cc",1]}])",
                  "entry [0]: \"arguments\" must hold only strings"}),
    [](const auto &info) { return std::string(info.param.name); });

TEST(CompileDatabaseReader, MissingDirectoryNamesThePath) {
  EXPECT_EQ(loadError("/nonexistent/streamlint/build"),
            "/nonexistent/streamlint/build: no compile_commands.json");
}

// llvm::json recurses once a level: 100,000 nested arrays overflowed the
// stack (a segmentation fault) before the reader checked the depth.
TEST(CompileDatabaseReader, DeepNestingIsAnErrorWithPosition) {
  TempDir dir;
  for (size_t depth : {size_t(600), size_t(100000), size_t(2000000)}) {
    dir.write("compile_commands.json",
              "[\n" + std::string(depth, '[') + std::string(depth, ']') + "]");
    std::string message = loadError(dir.path());
    EXPECT_NE(message.find("compile_commands.json:2:512: malformed compile "
                           "database: nested more than 512 levels deep"),
              std::string::npos)
        << message;
  }
}

TEST(CompileDatabaseReader, BracketsInStringsAreNotNesting) {
  TempDir dir;
  std::string deepText(5000, '[');
  dir.write("compile_commands.json",
            R"([{"directory": "/b", "file": "a.c", "command": "cc -DX=\")" +
                deepText + R"(\" a.c"}])");
  EXPECT_EQ(loadError(dir.path()), "(loaded)");
}

TEST(CompileDatabaseReader, DeepObjectsAreAnErrorToo) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 100000; ++i)
    text += "{\"a\":";
  dir.write("compile_commands.json", text);
  std::string message = loadError(dir.path());
  EXPECT_NE(message.find("compile_commands.json:1:"), std::string::npos) << message;
  EXPECT_NE(message.find("nested more than"), std::string::npos) << message;
}

} // namespace
} // namespace streamlint
