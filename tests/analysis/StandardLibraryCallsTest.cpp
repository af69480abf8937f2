// StandardLibraryCalls on calls parsed with the host's C and C++ library
// headers and the stub CUDA headers (system headers too): which calls are the
// standard library's, which run no code of the program, and which hand the
// callee the program's code.
#include "analyzer/analysis/StandardLibraryCalls.h"
#include "analyzer/analysis/StreamOperations.h"

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
  const char *statement; // in f(char *text, float *pinned, std::vector<Point> &points)
  bool standard;         // isStandardLibraryFunction of its first call
  bool selfContained;    // isSelfContainedLibraryCall
  bool programCode;      // passesProgramCallable
};

const Case Cases[] = {
    {"Strcmp", "strcmp(text, \"chol\");", true, true, false},
    {"Ceil", "ceil(2.5);", true, true, false},
    {"StdCeil", "std::ceil(2.5f);", true, true, false},
    {"Memset", "memset(text, 0, 4);", true, true, false},
    {"SteadyClockNow", "std::chrono::steady_clock::now();", true, true, false},
    {"DurationCount", "std::chrono::duration<double>(1.0).count();", true, true, false},
    {"CoutWithEndl", "std::cout << 1 << std::endl;", true, true, false},
    {"StringSize", "std::string(\"x\").size();", true, true, false},
    {"SortBuiltins", "std::sort(pinned, pinned + 4);", true, true, false},
    {"SortWithLambda", "std::sort(pinned, pinned + 4, [](float a, float b) { return a < b; });",
     true, false, true},
    {"ForEachWithFunction", "std::for_each(pinned, pinned + 4, visit);", true, false, true},
    {"ForEachWithFunctor", "std::for_each(pinned, pinned + 4, Visitor());", true, false, true},
    {"StdFunction", "std::function<void(float)> g(visit); std::for_each(pinned, pinned + 4, g);",
     true, false, true},
    {"StdLessIsLibraryCode", "std::sort(pinned, pinned + 4, std::less<float>());", true, true,
     false},
    {"QsortComparator", "qsort(pinned, 4, sizeof(float), compare);", true, false, true},
    // A null function pointer hands the callee no code (llm.c's
    // glob(pattern, 0, NULL, &found)). POSIX's glob is not the C or C++
    // standard library's, but a system header's all the same.
    {"GlobWithoutErrorFunction", "glob_t found; glob(text, 0, NULL, &found);", false, false,
     false},
    {"GlobWithNullptr", "glob_t found; glob(text, 0, nullptr, &found);", false, false, false},
    {"GlobWithErrorFunction", "glob_t found; glob(text, 0, onError, &found);", false, false,
     true},
    {"ProgramTypeInTemplate", "std::sort(points.begin(), points.end());", true, false, false},
    {"ProgramFunction", "visit(1.0f);", false, false, false},
    {"CudaRuntime", "cudaDeviceSynchronize();", false, false, false},
    {"Cublas", "cublasHandle_t h; cublasCreate(&h);", false, false, false},
    {"Thrust", "thrust::sort(pinned, pinned + 4);", false, false, false},
};

std::unique_ptr<clang::ASTUnit> parse(const std::string &statement) {
  std::string code = "#include <cuda_runtime.h>\n"
                     "#include <cublas_v2.h>\n"
                     "#include <thrust/sort.h>\n"
                     "#include <algorithm>\n#include <chrono>\n#include <cmath>\n"
                     "#include <cstdlib>\n#include <cstring>\n#include <functional>\n"
                     "#include <iostream>\n#include <string>\n#include <vector>\n"
                     "#include <glob.h>\n"
                     "int onError(const char *, int);\n"
                     "struct Point { float x; bool operator<(const Point &o) const; };\n"
                     "void visit(float);\n"
                     "struct Visitor { void operator()(float) const; };\n"
                     "int compare(const void *, const void *);\n"
                     "void f(char *text, float *pinned, std::vector<Point> &points) {\n" +
                     statement + "\n}\n";
  std::vector<std::string> args = {
      "-x", "cuda", "-std=c++17", "--cuda-host-only", "-nocudainc", "-nocudalib",
      "-isystem", std::string(STREAMLINT_TESTDATA_DIR) + "/stub",
      "-resource-dir", STREAMLINT_CLANG_RESOURCE_DIR, "-w"};
  return clang::tooling::buildASTFromCodeWithArgs(code, args, "case.cu");
}

class StandardLibraryCalls : public ::testing::TestWithParam<Case> {};

TEST_P(StandardLibraryCalls, ClassifiesTheCall) {
  const Case &test = GetParam();
  std::unique_ptr<clang::ASTUnit> unit = parse(test.statement);
  ASSERT_TRUE(unit);
  ASSERT_FALSE(unit->getDiagnostics().hasErrorOccurred()) << test.statement;
  clang::ASTContext &ast = unit->getASTContext();
  auto functions =
      am::match(am::functionDecl(am::hasName("f"), am::isDefinition()).bind("f"), ast);
  ASSERT_EQ(functions.size(), 1u);
  const auto *function = functions[0].getNodeAs<clang::FunctionDecl>("f");
  // The outermost call of the last statement: `a << b << c` is the last
  // operator<<, `std::for_each(...)` itself, not a call in its arguments.
  const clang::Expr *last = llvm::dyn_cast<clang::Expr>(
      llvm::cast<clang::CompoundStmt>(function->getBody())->body_back());
  ASSERT_TRUE(last) << test.statement;
  while (true) {
    last = last->IgnoreParenImpCasts();
    if (const auto *cleanups = llvm::dyn_cast<clang::ExprWithCleanups>(last))
      last = cleanups->getSubExpr();
    else if (const auto *bind = llvm::dyn_cast<clang::CXXBindTemporaryExpr>(last))
      last = bind->getSubExpr();
    else
      break;
  }
  const auto *call = llvm::dyn_cast<clang::CallExpr>(last);
  ASSERT_TRUE(call) << "no call in: " << test.statement;
  ASSERT_TRUE(call->getDirectCallee()) << test.statement;
  const clang::SourceManager &sources = ast.getSourceManager();
  EXPECT_EQ(test.standard, isStandardLibraryFunction(*call->getDirectCallee(), sources));
  EXPECT_EQ(test.selfContained, isSelfContainedLibraryCall(*call, sources));
  EXPECT_EQ(test.programCode, passesProgramCallable(*call, sources));
}

INSTANTIATE_TEST_SUITE_P(Cases, StandardLibraryCalls, ::testing::ValuesIn(Cases),
                         [](const auto &info) { return std::string(info.param.name); });

/// Stream ordering: a standard call is neutral, unless the code of the
/// program it is given does CUDA work.
OperationEffect effectOfCalls(const std::string &statement) {
  std::unique_ptr<clang::ASTUnit> unit = parse(statement);
  EXPECT_TRUE(unit && !unit->getDiagnostics().hasErrorOccurred()) << statement;
  if (!unit || unit->getDiagnostics().hasErrorOccurred())
    return OperationEffect::Return;
  clang::ASTContext &ast = unit->getASTContext();
  auto functions =
      am::match(am::functionDecl(am::hasName("f"), am::isDefinition()).bind("f"), ast);
  const auto *function = functions[0].getNodeAs<clang::FunctionDecl>("f");
  // Neutral calls are not listed: the statement's call is the only other one.
  for (const StreamOperation &operation : operationsOf(*function, ast, false).operations)
    if (operation.effect != OperationEffect::Return)
      return operation.effect;
  return OperationEffect::Neutral;
}

TEST(StandardLibraryOrdering, NeutralUnlessGivenCodeThatDoesCudaWork) {
  EXPECT_EQ(OperationEffect::Neutral, effectOfCalls("std::sort(pinned, pinned + 4);"));
  EXPECT_EQ(OperationEffect::Neutral,
            effectOfCalls("std::for_each(pinned, pinned + 4, [](float &v) { v += 1; });"));
  EXPECT_EQ(OperationEffect::Opaque,
            effectOfCalls("std::for_each(pinned, pinned + 4, "
                             "[](float &v) { cudaMemset(&v, 0, 4); });"));
  EXPECT_EQ(OperationEffect::Opaque, effectOfCalls("std::for_each(pinned, pinned + 4, visit);"));
  EXPECT_EQ(OperationEffect::Opaque,
            effectOfCalls("void (*g)(float) = visit; std::for_each(pinned, pinned + 4, g);"));
}

} // namespace
} // namespace streamlint
