// StreamResolution on small functions parsed with the stub CUDA header: what
// the last stream-taking call's stream is, and which stream a fix may pass
// there.
#include "analyzer/analysis/StreamResolution.h"

#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

namespace streamlint {
namespace {

namespace am = clang::ast_matchers;

struct Case {
  const char *name;
  const char *body;        // body of f(float *d, cudaStream_t p, cudaStream_t q)
  StreamKind kind;         // of the last stream-taking call in f
  const char *inScope;     // uniqueStreamInScope there; "" = none
};

const Case Cases[] = {
    {"OmittedLaunch", "kernel<<<1, 1>>>(d);", StreamKind::Omitted, ""},
    {"OmittedApi", "cudaMemsetAsync(d, 0, 4);", StreamKind::Omitted, ""},
    {"LiteralZero", "kernel<<<1, 1, 0, 0>>>(d);", StreamKind::Null, ""},
    {"Nullptr", "cudaMemsetAsync(d, 0, 4, nullptr);", StreamKind::Null, ""},
    {"NullMacro", "cudaMemsetAsync(d, 0, 4, NULL);", StreamKind::Null, ""},
    {"LegacyHandle", "kernel<<<1, 1, 0, cudaStreamLegacy>>>(d);", StreamKind::Legacy, ""},
    {"PerThreadHandle", "kernel<<<1, 1, 0, cudaStreamPerThread>>>(d);", StreamKind::PerThread, ""},
    {"ParameterNamed", "kernel<<<1, 1, 0, p>>>(d);", StreamKind::Named, "p"},
    {"LocalOnlyZero", "cudaStream_t z = 0; z = NULL; kernel<<<1, 1, 0, z>>>(d);",
     StreamKind::Null, ""},
    {"LocalLegacy", "cudaStream_t z = cudaStreamLegacy; kernel<<<1, 1, 0, z>>>(d);",
     StreamKind::Legacy, ""},
    {"LocalAddressTaken", "cudaStream_t z = 0; cudaStreamCreate(&z); kernel<<<1, 1, 0, z>>>(d);",
     StreamKind::Named, "z"},
    {"LocalReassigned", "cudaStream_t z = 0; z = p; kernel<<<1, 1, 0, z>>>(d);",
     StreamKind::Named, "z"},
    {"LocalMixedConstants", "cudaStream_t z = 0; z = cudaStreamPerThread; kernel<<<1, 1, 0, z>>>(d);",
     StreamKind::Named, "z"},
    {"ConstZero", "const cudaStream_t z = 0; kernel<<<1, 1, 0, z>>>(d);", StreamKind::Null, ""},
    {"Conditional", "kernel<<<1, 1, 0, d ? p : 0>>>(d);", StreamKind::Unknown, ""},
    {"CallResult", "kernel<<<1, 1, 0, pick()>>>(d);", StreamKind::Named, ""},
    {"TwoStreamsInUse", "kernel<<<1, 1, 0, p>>>(d); kernel<<<1, 1, 0, q>>>(d); kernel<<<1, 1>>>(d);",
     StreamKind::Omitted, ""},
    {"OneOfTwoInUse", "kernel<<<1, 1, 0, q>>>(d); cudaMemsetAsync(d, 0, 4);",
     StreamKind::Omitted, "q"},
    {"CreatedLocal",
     "cudaStream_t s; cudaStreamCreate(&s); cudaMemsetAsync(d, 0, 4, s); kernel<<<1, 1>>>(d);",
     StreamKind::Omitted, "s"},
    {"DeclaredAfterSite",
     "kernel<<<1, 1>>>(d); cudaStream_t s; cudaStreamCreate(&s); cudaMemsetAsync(d, 0, 4, s); "
     "kernel<<<1, 1>>>(d); /* last site is after s: in scope */",
     StreamKind::Omitted, "s"},
    {"InnerScopeNotVisible",
     "{ cudaStream_t s; cudaStreamCreate(&s); cudaMemsetAsync(d, 0, 4, s); } kernel<<<1, 1>>>(d);",
     StreamKind::Omitted, ""},
    {"ArrayOfStreams",
     "cudaStream_t s[2]; cudaMemsetAsync(d, 0, 4, s[0]); kernel<<<1, 1>>>(d);",
     StreamKind::Omitted, ""},
};

std::unique_ptr<clang::ASTUnit> parse(const std::string &body) {
  std::string code = "#include <cuda_runtime.h>\n"
                     "__global__ void kernel(float *) {}\n"
                     "cudaStream_t pick();\n"
                     "void f(float *d, cudaStream_t p, cudaStream_t q) {\n" +
                     body + "\n}\n";
  std::vector<std::string> args = {
      "-x", "cuda", "-std=c++17", "--cuda-host-only", "-nocudainc", "-nocudalib",
      "-isystem", std::string(STREAMLINT_TESTDATA_DIR) + "/stub",
      "-resource-dir", STREAMLINT_CLANG_RESOURCE_DIR, "-w"};
  return clang::tooling::buildASTFromCodeWithArgs(code, args, "case.cu");
}

class StreamResolution : public ::testing::TestWithParam<Case> {};

TEST_P(StreamResolution, ClassifiesAndFindsStreamInScope) {
  const Case &test = GetParam();
  std::unique_ptr<clang::ASTUnit> unit = parse(test.body);
  ASSERT_TRUE(unit);
  ASSERT_FALSE(unit->getDiagnostics().hasErrorOccurred()) << test.body;
  clang::ASTContext &ast = unit->getASTContext();
  auto functions = am::match(
      am::functionDecl(am::hasName("f"), am::isDefinition()).bind("f"), ast);
  ASSERT_EQ(functions.size(), 1u);
  const auto *function = functions[0].getNodeAs<clang::FunctionDecl>("f");
  const clang::CallExpr *last = nullptr;
  std::optional<StreamArgumentSite> site;
  for (const auto &match : am::match(am::findAll(am::callExpr().bind("call")),
                                     *function->getBody(), ast)) {
    const auto *call = match.getNodeAs<clang::CallExpr>("call");
    auto candidate = streamArgumentOf(*call);
    if (candidate && (!last || ast.getSourceManager().isBeforeInTranslationUnit(
                                   last->getBeginLoc(), call->getBeginLoc()))) {
      last = call;
      site = candidate;
    }
  }
  ASSERT_TRUE(last) << "no stream-taking call in: " << test.body;
  StreamClassification stream =
      classifyStreamArgument(site->argument, ast, function);
  EXPECT_EQ(streamKindName(test.kind), std::string(streamKindName(stream.kind)));
  std::optional<StreamInScope> inScope = uniqueStreamInScope(*function, *last, ast);
  EXPECT_EQ(std::string(test.inScope), inScope ? inScope->spelling : "");
}

INSTANTIATE_TEST_SUITE_P(Cases, StreamResolution, ::testing::ValuesIn(Cases),
                         [](const auto &info) { return std::string(info.param.name); });

TEST(StreamResolutionNames, StripsPerThreadSuffixesAndKnowsLegacy) {
  EXPECT_TRUE(isLegacyStream(StreamKind::Omitted, false));
  EXPECT_FALSE(isLegacyStream(StreamKind::Omitted, true));
  EXPECT_FALSE(isLegacyStream(StreamKind::Null, true));
  EXPECT_TRUE(isLegacyStream(StreamKind::Legacy, true));
  EXPECT_FALSE(isLegacyStream(StreamKind::PerThread, false));
  EXPECT_FALSE(isLegacyStream(StreamKind::Named, false));
}

} // namespace
} // namespace streamlint
