// AnalysisScope: the checks' walks and the parent map cover the TU's
// declarations outside system headers, and ProvenanceIndex still sees the
// calls a system header's template makes of the user's functions. With the
// project's directories walked, a framework header's functions are walked
// only where the project's code calls them.
#include "analyzer/analysis/AnalysisScope.h"
#include "analyzer/analysis/InstantiationArguments.h"
#include "analyzer/analysis/PointerProvenance.h"
#include "analyzer/analysis/ProvenanceIndex.h"
#include "analyzer/analysis/FileLocalDeclarations.h"
#include "analyzer/analysis/TranslationUnitContext.h"
#include "analyzer/config/CheckOptions.h"
#include "analyzer/reach/TranslationUnitReach.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

#include <map>

namespace streamlint {
namespace {

namespace am = clang::ast_matchers;

// A system header: a template that calls what it is given, and a function
// of its own.
constexpr const char *SystemHeader = R"(
namespace sys {
template <class F, class T> void apply(F f, T *p) { f(p); }
inline void own(float *p) { float *q = p; (void)q; }
}
)";

constexpr const char *MainFile = R"(
#include <sysapply.h>
void copy(float *pinned) {
  auto onOne = [](float *p) { (void)p; };
  onOne(pinned);
  sys::apply(onOne, pinned);
  for (int i = 0; i < 2; ++i) { float *local = pinned; (void)local; }
}
)";

/// `code` as `file`, with one header `headerPath` found through `includeFlag`.
std::unique_ptr<clang::ASTUnit> parseWith(const char *code, const char *file,
                                          const char *includeFlag, const char *headerPath,
                                          const char *header) {
  std::string directory(llvm::StringRef(headerPath).rsplit('/').first);
  return clang::tooling::buildASTFromCodeWithArgs(
      code, {"-std=c++17", includeFlag, directory}, file, "scope-test",
      std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), {{headerPath, header}});
}

std::unique_ptr<clang::ASTUnit> parse() {
  return parseWith(MainFile, "/scope-test/main.cpp", "-isystem",
                   "/scope-test/include/sysapply.h", SystemHeader);
}

std::vector<std::string> namesOf(const std::vector<clang::Decl *> &decls) {
  std::vector<std::string> names;
  for (const clang::Decl *decl : decls)
    if (const auto *named = llvm::dyn_cast<clang::NamedDecl>(decl))
      names.push_back(named->getNameAsString());
  return names;
}

TEST(AnalysisScope, KeepsTheUsersDeclarationsOnly) {
  std::unique_ptr<clang::ASTUnit> unit = parse();
  ASSERT_TRUE(unit);
  clang::ASTContext &ast = unit->getASTContext();
  std::vector<std::string> names = namesOf(userTopLevelDeclarations(ast));
  EXPECT_NE(std::find(names.begin(), names.end(), "copy"), names.end());
  EXPECT_EQ(std::find(names.begin(), names.end(), "sys"), names.end());
  EXPECT_TRUE(traversesWholeTranslationUnit(ast));
  limitTraversalToUserCode(ast);
  EXPECT_FALSE(traversesWholeTranslationUnit(ast));
}

TEST(AnalysisScope, MatchersAndParentsSeeUserCodeOnly) {
  std::unique_ptr<clang::ASTUnit> unit = parse();
  ASSERT_TRUE(unit);
  clang::ASTContext &ast = unit->getASTContext();
  limitTraversalToUserCode(ast);
  struct Collector : am::MatchFinder::MatchCallback {
    std::vector<std::string> names;
    const clang::VarDecl *local = nullptr;
    void run(const am::MatchFinder::MatchResult &result) override {
      const auto *var = result.Nodes.getNodeAs<clang::VarDecl>("var");
      names.push_back(var->getNameAsString());
      if (var->getName() == "local")
        local = var;
    }
  } collector;
  am::MatchFinder finder;
  finder.addMatcher(am::varDecl().bind("var"), &collector);
  finder.matchAST(ast);
  auto seen = [&](const char *name) {
    return std::find(collector.names.begin(), collector.names.end(), name) !=
           collector.names.end();
  };
  EXPECT_TRUE(seen("local"));
  EXPECT_FALSE(seen("q")) << "a variable of a system header's function was matched";
  // The parent map, built after the scope was set, covers the user's code.
  ASSERT_NE(collector.local, nullptr);
  const clang::Stmt *init = collector.local->getInit();
  ASSERT_NE(init, nullptr);
  const clang::FunctionDecl *function = enclosingFunctionOf(ast, *init);
  ASSERT_NE(function, nullptr);
  EXPECT_EQ(function->getNameAsString(), "copy");
}

TEST(AnalysisScope, ProvenanceStillSeesCallsFromSystemTemplates) {
  std::unique_ptr<clang::ASTUnit> unit = parse();
  ASSERT_TRUE(unit);
  clang::ASTContext &ast = unit->getASTContext();
  limitTraversalToUserCode(ast);
  PointerProvenance provenance(ast);
  const clang::FunctionDecl *lambdaCall = nullptr;
  size_t calls = 0;
  for (const auto &[callee, sites] : provenance.callsByCallee())
    if (const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(callee))
      if (method->getParent()->isLambda()) {
        lambdaCall = callee;
        calls = sites.size();
      }
  ASSERT_NE(lambdaCall, nullptr);
  // onOne(pinned) in copy() and f(p) in sys::apply<lambda, float>.
  EXPECT_EQ(calls, 2u);
}

// A lambda handed to a library function is called from the library's body,
// which streamlint's parse skips (skipsBodyOf): not all of its callers are
// visible, even when that body was parsed (here) and shows one of them. A
// lambda the user's code only calls keeps its visible callers.
TEST(AnalysisScope, ALambdaHandedToTheLibraryHasCallersThatAreNotVisible) {
  constexpr const char *Main = R"(
#include <sysapply.h>
void copy(float *pinned) {
  auto handed = [](float *p) { (void)p; };
  auto kept = [](float *p) { (void)p; };
  handed(pinned);
  kept(pinned);
  sys::apply(handed, pinned);
}
)";
  std::unique_ptr<clang::ASTUnit> unit = parseWith(
      Main, "/scope-test/main.cpp", "-isystem", "/scope-test/include/sysapply.h", SystemHeader);
  ASSERT_TRUE(unit);
  clang::ASTContext &ast = unit->getASTContext();
  limitTraversalToUserCode(ast);
  ProvenanceIndex index(ast);
  std::map<std::string, const clang::FunctionDecl *> operators;
  for (const auto &[callee, sites] : index.callsByCallee())
    if (const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(callee))
      if (method->getParent()->isLambda())
        for (const clang::CallExpr *site : sites)
          if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(
                  site->getArg(0)->IgnoreParenImpCasts()))
            operators[ref->getDecl()->getNameAsString()] = callee;
  ASSERT_TRUE(operators.count("handed") && operators.count("kept"));
  EXPECT_EQ(index.visibleCallers(operators["handed"]), nullptr);
  const std::vector<const clang::CallExpr *> *kept = index.visibleCallers(operators["kept"]);
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(kept->size(), 1u);
}

/// The function instantiations of `ast` with a body, as clang hands them to
/// the AST consumer while parsing (TranslationUnitInfo::instantiations).
std::vector<const clang::FunctionDecl *> instantiationsOf(clang::ASTContext &ast) {
  struct Collector : clang::RecursiveASTVisitor<Collector> {
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitFunctionDecl(clang::FunctionDecl *function) {
      if (function->isTemplateInstantiation() && function->doesThisDeclarationHaveABody())
        found.push_back(function);
      return true;
    }
    std::vector<const clang::FunctionDecl *> found;
  } collector;
  collector.TraverseAST(ast);
  return collector.found;
}

size_t lambdaCallsSeen(PointerProvenance &provenance) {
  for (const auto &[callee, sites] : provenance.callsByCallee())
    if (const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(callee))
      if (method->getParent()->isLambda())
        return sites.size();
  return 0;
}

TEST(AnalysisScope, ProvenanceReadsTheParsesInstantiationsThatNameTheUsersCode) {
  std::unique_ptr<clang::ASTUnit> unit = parse();
  ASSERT_TRUE(unit);
  clang::ASTContext &ast = unit->getASTContext();
  std::optional<std::vector<const clang::FunctionDecl *>> recorded = instantiationsOf(ast);
  limitTraversalToUserCode(ast);
  ASSERT_EQ(recorded->size(), 1u); // sys::apply<lambda, float>
  PointerProvenance provenance(ast, &recorded);
  EXPECT_EQ(lambdaCallsSeen(provenance), 2u);
  // Only the list is read: without it in the list, the system caller is
  // not seen.
  std::optional<std::vector<const clang::FunctionDecl *>> none =
      std::vector<const clang::FunctionDecl *>{};
  PointerProvenance withoutIt(ast, &none);
  EXPECT_EQ(lambdaCallsSeen(withoutIt), 1u);
  // sys::apply<lambda, float> names the lambda's class, declared in copy().
  const clang::FunctionDecl &apply = *recorded->front();
  EXPECT_TRUE(instantiatedWith(apply, [](const clang::Decl &decl) {
    const auto *record = llvm::dyn_cast<clang::CXXRecordDecl>(&decl);
    return record && record->isLambda();
  }));
  EXPECT_TRUE(instantiatedWith(apply, [](const clang::Decl &decl) {
    const auto *function = llvm::dyn_cast<clang::FunctionDecl>(&decl);
    return function && function->getNameAsString() == "copy";
  }));
  EXPECT_FALSE(instantiatedWith(apply, [](const clang::Decl &) { return false; }));
}

/// The top-level declaration named `name` in `code` (CUDA, host side).
bool holdsFileLocal(const char *code, const char *name) {
  std::unique_ptr<clang::ASTUnit> unit = clang::tooling::buildASTFromCodeWithArgs(
      std::string("#define __device__ __attribute__((device))\n"
                  "#define __global__ __attribute__((global))\n"
                  "#define __host__ __attribute__((host))\n") +
          code,
      {"-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib", "-std=c++17",
       "-Wno-unknown-cuda-version"},
      "/scope-test/header.cu");
  EXPECT_TRUE(unit);
  for (clang::Decl *decl : unit->getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *named = llvm::dyn_cast<clang::NamedDecl>(decl))
      if (named->getNameAsString() == name)
        return holdsFileLocalDeclaration(*decl);
  ADD_FAILURE() << "no declaration " << name;
  return false;
}

// What a project header in a preamble may hold for provenance to keep the
// full library walk: what the index treats as closed in the TU.
TEST(AnalysisScope, FileLocalDeclarationsAreThoseClosedInTheTranslationUnit) {
  EXPECT_TRUE(holdsFileLocal("static void copy(float *p) {}", "copy"));
  EXPECT_TRUE(holdsFileLocal("namespace { void copy(float *p) {} }", ""));
  EXPECT_TRUE(holdsFileLocal("namespace ns { static void copy(float *p) {} }", "ns"));
  EXPECT_TRUE(holdsFileLocal("static float *buffer;", "buffer"));
  EXPECT_TRUE(holdsFileLocal("static auto each = [](float *p) { (void)p; };", "each"));
  EXPECT_TRUE(holdsFileLocal("void run(float *p) { auto f = [](float *q) {}; f(p); }", "run"));
  // Externally visible: their callers are open anyway.
  EXPECT_FALSE(holdsFileLocal("inline void copy(float *p) {}", "copy"));
  EXPECT_FALSE(holdsFileLocal("template <class T> void copy(T *p) {}", "copy"));
  EXPECT_FALSE(holdsFileLocal("struct Tensors { float *p; void fill(); };", "Tensors"));
  EXPECT_FALSE(holdsFileLocal("inline void run(float *p) { auto f = [](float *q) {}; f(p); }",
                              "run"));
  // Not a pointer, or not the host's.
  EXPECT_FALSE(holdsFileLocal("constexpr int depth[2] = {1, 2};", "depth"));
  EXPECT_FALSE(holdsFileLocal("static __device__ float twice(float x) { return 2 * x; }",
                              "twice"));
  EXPECT_FALSE(holdsFileLocal("namespace { __global__ void fill(float *p) {} }", ""));
  EXPECT_TRUE(holdsFileLocal("static __host__ __device__ void both(float *p) {}", "both"));
}

// A framework header under -I outside the project: a function the project
// calls (and what it calls), a template the project instantiates, and a
// function nothing of the project's calls.
constexpr const char *FrameworkHeader = R"(
namespace fw {
inline void deeper(float *p) { (void)p; }
inline void called(float *p) { deeper(p); }
inline void unused(float *p) { float *r = p; (void)r; }
template <class F> void each(int n, F f) { for (int i = 0; i < n; ++i) f(i); }
}
)";

constexpr const char *ProjectFile = R"(
#include <fw.h>
void run(float *d, int n) {
  fw::called(d);
  fw::each(n, [d](int i) { (void)d; (void)i; });
}
)";

std::unique_ptr<clang::ASTUnit> parseProject() {
  return parseWith(ProjectFile, "/scope-test/project/src/main.cpp", "-I",
                   "/scope-test/fw/fw.h", FrameworkHeader);
}

TEST(AnalysisScope, WalkedDirectoriesLeaveTheFrameworkOut) {
  std::unique_ptr<clang::ASTUnit> unit = parseProject();
  ASSERT_TRUE(unit);
  clang::ASTContext &ast = unit->getASTContext();
  std::vector<std::string> all = namesOf(userTopLevelDeclarations(ast));
  EXPECT_NE(std::find(all.begin(), all.end(), "fw"), all.end());
  std::vector<std::string> walked =
      namesOf(userTopLevelDeclarations(ast, {"/scope-test/project"}));
  EXPECT_EQ(std::find(walked.begin(), walked.end(), "fw"), walked.end());
  EXPECT_NE(std::find(walked.begin(), walked.end(), "run"), walked.end());
  // The main file is walked wherever it lies.
  walked = namesOf(userTopLevelDeclarations(ast, {"/elsewhere"}));
  EXPECT_NE(std::find(walked.begin(), walked.end(), "run"), walked.end());
}

TEST(AnalysisScope, TheCallGraphPullsInWhatTheProjectCalls) {
  std::unique_ptr<clang::ASTUnit> unit = parseProject();
  ASSERT_TRUE(unit);
  clang::ASTContext &ast = unit->getASTContext();
  TranslationUnitInfo info;
  info.mainFile = "/scope-test/project/src/main.cpp";
  info.walkedDirectories = {"/scope-test/project"};
  CheckOptions options;
  TranslationUnitContext context(ast, info, options);
  limitTraversalToUserCode(ast, info.walkedDirectories);
  reach::TranslationUnitReach reach(context);
  reach.build();
  std::vector<std::string> pulled;
  for (const clang::FunctionDecl *function : context.pulledFunctions())
    pulled.push_back(function->getNameAsString());
  std::sort(pulled.begin(), pulled.end());
  EXPECT_EQ(pulled, (std::vector<std::string>{"called", "deeper", "each"}));
  // The lambda the template calls is the project's: walked with run().
  addToTraversalScope(ast, context.pulledFunctions());
  struct Collector : am::MatchFinder::MatchCallback {
    std::vector<std::string> names;
    void run(const am::MatchFinder::MatchResult &result) override {
      names.push_back(result.Nodes.getNodeAs<clang::FunctionDecl>("f")->getNameAsString());
    }
  } collector;
  am::MatchFinder finder;
  finder.addMatcher(am::callExpr(am::callee(am::functionDecl().bind("f"))), &collector);
  finder.matchAST(ast);
  auto seen = [&](const char *name) {
    return std::count(collector.names.begin(), collector.names.end(), name);
  };
  EXPECT_EQ(seen("deeper"), 1) << "the call in fw::called was not matched once";
  EXPECT_EQ(seen("operator()"), 1) << "the call in fw::each<lambda> was not matched once";
}

TEST(AnalysisScope, WithoutWalkedDirectoriesNothingIsPulled) {
  std::unique_ptr<clang::ASTUnit> unit = parseProject();
  ASSERT_TRUE(unit);
  clang::ASTContext &ast = unit->getASTContext();
  TranslationUnitInfo info;
  info.mainFile = "/scope-test/project/src/main.cpp";
  CheckOptions options;
  TranslationUnitContext context(ast, info, options);
  limitTraversalToUserCode(ast);
  reach::TranslationUnitReach reach(context);
  reach.build();
  EXPECT_TRUE(context.pulledFunctions().empty());
}

} // namespace
} // namespace streamlint
