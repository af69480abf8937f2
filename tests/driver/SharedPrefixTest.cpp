// Which leading directives of a main file a shared preamble may stand for
// (analyzer/driver/SharedPrefix.h), without clang parsing anything.
#include "analyzer/driver/SharedPrefix.h"

#include <gtest/gtest.h>

namespace streamlint {
namespace {

std::vector<std::string> textsOf(const std::vector<PrefixDirective> &directives) {
  std::vector<std::string> texts;
  for (const PrefixDirective &directive : directives)
    texts.push_back(directive.text);
  return texts;
}

std::vector<std::string> directivesOf(llvm::StringRef text) {
  return textsOf(shareableDirectives(text, text.size()));
}

TEST(SharedPrefix, CommentsAndBlankLinesAreNotDirectives) {
  EXPECT_EQ(directivesOf("// Copyright\n/* a\n   block */\n\n#include <a.h>  // why\n"
                         "  #  include \"b.h\" /* c */\nint x;\n"),
            (std::vector<std::string>{"#include <a.h>", "#  include \"b.h\""}));
}

TEST(SharedPrefix, EndsAtTheFirstDefineOrDeclaration) {
  EXPECT_EQ(directivesOf("#include <a.h>\n#define N 4\n#include <b.h>\n"),
            std::vector<std::string>{"#include <a.h>"});
  EXPECT_EQ(directivesOf("#include <a.h>\nint x;\n#include <b.h>\n"),
            std::vector<std::string>{"#include <a.h>"});
  EXPECT_TRUE(directivesOf("#define _USE_MATH_DEFINES\n#include <cmath>\n").empty());
}

TEST(SharedPrefix, DirectivesThatDependOnWhereTheyStandAreNotShared) {
  EXPECT_EQ(directivesOf("#include <a.h>\n#if __LINE__ > 2\n#include <b.h>\n#endif\n"),
            std::vector<std::string>{"#include <a.h>"});
  EXPECT_EQ(directivesOf("#include <a.h>\n#include __FILE__\n"),
            std::vector<std::string>{"#include <a.h>"});
  EXPECT_EQ(directivesOf("#include <a.h>\n#line 40\n#include <b.h>\n"),
            std::vector<std::string>{"#include <a.h>"});
}

TEST(SharedPrefix, AnIncludeWhoseNameRawLexingCannotReadEndsIt) {
  // The preprocessor reads "a//b.h" as a name; a raw lexer as a comment.
  EXPECT_EQ(directivesOf("#include <x.h>\n#include <a//b.h>\n#include <c.h>\n"),
            std::vector<std::string>{"#include <x.h>"});
  EXPECT_EQ(directivesOf("#include <x.h>\n#include /* c */ <c.h>\n"),
            std::vector<std::string>{"#include <x.h>"});
  EXPECT_EQ(directivesOf("#include <x.h>\n#include HEADER\n"),
            std::vector<std::string>{"#include <x.h>"});
}

TEST(SharedPrefix, ConditionalsAreSharedWholeOnly) {
  std::string text = "#include <a.h>\n#ifdef X\n#include <b.h>\n#endif\n#include <c.h>\n";
  std::vector<PrefixDirective> directives = shareableDirectives(text, text.size());
  ASSERT_EQ(directives.size(), 5u);
  EXPECT_TRUE(directives[0].closesAll);
  EXPECT_FALSE(directives[1].closesAll);
  EXPECT_FALSE(directives[2].closesAll);
  EXPECT_TRUE(directives[3].closesAll);
  // Another file that diverges inside the #ifdef shares only the first.
  std::string other = "#include <a.h>\n#ifdef X\n#include <d.h>\n#endif\n";
  std::vector<std::vector<std::string>> shared =
      sharedDirectivesOf({directives, shareableDirectives(other, other.size())});
  EXPECT_EQ(shared[0].size(), 1u);
  EXPECT_EQ(shared[1], shared[0]);
}

TEST(SharedPrefix, EndIsPastTheLineOfTheLastSharedDirective) {
  std::string text = "// one\n#include <a.h> // a\n#include <b.h>\nint x;\n";
  std::optional<unsigned> end = sharedPrefixEnd(text, text.size(), {"#include <a.h>"});
  ASSERT_TRUE(end);
  EXPECT_EQ(text.substr(*end), "#include <b.h>\nint x;\n");
  // A file that does not begin with them (edited since): no end.
  EXPECT_FALSE(sharedPrefixEnd(text, text.size(), {"#include <b.h>"}));
  EXPECT_FALSE(sharedPrefixEnd(text, text.size(), {}));
  // Only within the prefix clang computed.
  EXPECT_FALSE(sharedPrefixEnd(text, 10, {"#include <a.h>"}));
}

TEST(SharedPrefix, ABlockCommentRunningOnPastADirectiveEndsTheSharing) {
  // "#include <b.h>" is on the first directive's logical line: neither is
  // shared.
  EXPECT_TRUE(directivesOf("#include <a.h> /* runs\n on */ #include <b.h>\n#include <c.h>\n")
                  .empty());
  // A comment running on to a line of its own ends that line.
  std::string text = "#include <a.h> /* runs\n on */\n#include <c.h>\nint x;\n";
  std::vector<PrefixDirective> directives = shareableDirectives(text, text.size());
  ASSERT_EQ(textsOf(directives), (std::vector<std::string>{"#include <a.h>", "#include <c.h>"}));
  EXPECT_EQ(text.substr(directives[0].end), "#include <c.h>\nint x;\n");
}

TEST(SharedPrefix, TusShareTheRunsThatSaveTheMostParsing) {
  auto of = [](llvm::StringRef text) { return shareableDirectives(text, text.size()); };
  std::vector<std::vector<PrefixDirective>> prefixes = {
      of("// file one\n#include <torch.h>\n#include <aten.h>\n#include <cublas.h>\nint a;\n"),
      of("// file two, another comment\n#include <torch.h>\n#include <aten.h>\n"
         "#include <runtime.h>\nint b;\n"),
      of("#include <torch.h>\n#include <aten.h>\n#include <cublas.h>\n#define N 1\nint c;\n"),
      of("#include <other.h>\nint d;\n"),
      of("#pragma once\n#include <torch.h>\n")};
  using Texts = std::vector<std::string>;
  const Texts common = {"#include <torch.h>", "#include <aten.h>"};
  const Texts withCublas = {"#include <torch.h>", "#include <aten.h>", "#include <cublas.h>"};
  // Each directive costing one: (torch, aten) built once for three TUs
  // saves more than (torch, aten, cublas) for two.
  std::vector<std::vector<std::string>> shared = sharedDirectivesOf(prefixes);
  EXPECT_EQ(shared[0], common);
  EXPECT_EQ(shared[1], common);
  EXPECT_EQ(shared[2], common);
  EXPECT_TRUE(shared[3].empty()); // shares nothing
  EXPECT_TRUE(shared[4].empty()); // a #pragma alone is no shared prefix
  EXPECT_EQ(sharedPrefixText(shared[0]), "#include <torch.h>\n#include <aten.h>\n");
  // cuBLAS' header costing most: the two TUs that include it share it, and
  // the third, left alone, keeps its own prefix.
  std::vector<Texts> asked;
  auto heavyCublas = [&](const Texts &run) {
    asked.push_back(run);
    std::vector<double> costs = {10, 11, 40};
    costs.resize(run.size());
    return costs;
  };
  shared = sharedDirectivesOf(prefixes, heavyCublas);
  EXPECT_EQ(shared[0], withCublas);
  EXPECT_TRUE(shared[1].empty());
  EXPECT_EQ(shared[2], withCublas);
  // Only the longest candidate run was measured (the shorter are its start).
  EXPECT_EQ(asked, std::vector<Texts>{withCublas});
  // torch's header costing nearly all: one preamble for the three.
  auto heavyTorch = [](const Texts &run) {
    std::vector<double> costs = {100, 101, 103};
    costs.resize(run.size());
    return costs;
  };
  shared = sharedDirectivesOf(prefixes, heavyTorch);
  EXPECT_EQ(shared[1], common);
  EXPECT_EQ(shared[2], common);
  // A measurement that fails: each directive costs one.
  shared = sharedDirectivesOf(prefixes, [](const Texts &) { return std::vector<double>{}; });
  EXPECT_EQ(shared[0], common);
  EXPECT_EQ(shared[1], common);
}

TEST(SharedPrefix, RunsAreMeasuredOnlyWhereTheChoiceDependsOnThem) {
  auto of = [](llvm::StringRef text) { return shareableDirectives(text, text.size()); };
  unsigned asked = 0;
  auto counting = [&](const std::vector<std::string> &run) {
    ++asked;
    return std::vector<double>(run.size(), 1.0);
  };
  // Two TUs that share only their first #include take it, unmeasured.
  std::vector<std::vector<std::string>> pair = sharedDirectivesOf(
      {of("#include <torch.h>\n#include <aten.h>\n"),
       of("#include <torch.h>\n#include <other.h>\n")},
      counting);
  EXPECT_EQ(pair[0], std::vector<std::string>{"#include <torch.h>"});
  EXPECT_EQ(pair[1], std::vector<std::string>{"#include <torch.h>"});
  EXPECT_EQ(asked, 0u);
  // A run inside an #if is no candidate: the TUs share up to the #endif.
  std::vector<std::vector<std::string>> guarded = sharedDirectivesOf(
      {of("#include <a.h>\n#if X\n#include <b.h>\n#endif\n#include <c.h>\nint a;\n"),
       of("#include <a.h>\n#if X\n#include <b.h>\n#endif\n#include <d.h>\nint b;\n")},
      counting);
  EXPECT_EQ(guarded[0],
            (std::vector<std::string>{"#include <a.h>", "#if X", "#include <b.h>", "#endif"}));
  EXPECT_EQ(guarded[1], guarded[0]);
  EXPECT_EQ(asked, 0u);
}

TEST(SharedPrefix, KernelFilesOfOneExtensionShareTheirHeavyFirstIncludes) {
  // apex's amp_C, in short: eight kernels (A) include the project's headers
  // after <assert.h>, three (B) take a guard header first, one (C) its own.
  auto of = [](llvm::StringRef text) { return shareableDirectives(text, text.size()); };
  const char *aten = "#include <ATen/ATen.h>\n#include <ATen/cuda/CUDAContext.h>\n";
  std::vector<std::vector<PrefixDirective>> prefixes;
  for (int i = 0; i < 8; ++i)
    prefixes.push_back(of(std::string(aten) + "#include <assert.h>\n#include \"apply.cuh\"\n"));
  for (int i = 0; i < 3; ++i)
    prefixes.push_back(of(std::string(aten) + "#include <guard.h>\n#include <assert.h>\n"
                                              "#include \"apply.cuh\"\n"));
  prefixes.push_back(of(std::string(aten) + "#include <assert.h>\n#include <sstream>\n"));
  // ATen's header is nearly all of it (as measured there).
  auto measured = [](const std::vector<std::string> &run) {
    std::vector<double> costs = {9500, 9600, 9610, 9700, 9800};
    costs.resize(run.size());
    return costs;
  };
  std::vector<std::vector<std::string>> shared = sharedDirectivesOf(prefixes, measured);
  std::vector<std::string> first = {"#include <ATen/ATen.h>", "#include <ATen/cuda/CUDAContext.h>"};
  for (const std::vector<std::string> &run : shared)
    EXPECT_EQ(run, first);
}

} // namespace
} // namespace streamlint
