#include "analyzer/driver/TranslationUnitRunner.h"

#include "analyzer/reach/TranslationUnitReach.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace streamlint {
namespace {

constexpr size_t MaxReportedErrors = 5;

/// Keeps clang's first errors as text; warnings are not the user's concern here.
class ErrorCollector : public clang::DiagnosticConsumer {
public:
  std::vector<std::string> errors;
  unsigned omitted = 0;

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override {
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error)
      return;
    if (errors.size() >= MaxReportedErrors) {
      ++omitted;
      return;
    }
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    std::string where;
    if (info.getLocation().isValid() && info.hasSourceManager()) {
      clang::PresumedLoc presumed =
          info.getSourceManager().getPresumedLoc(info.getLocation());
      if (presumed.isValid())
        where = std::string(presumed.getFilename()) + ":" +
                std::to_string(presumed.getLine()) + ":" +
                std::to_string(presumed.getColumn()) + ": ";
    }
    errors.push_back(where + "error: " + std::string(message));
  }
};

/// Runs the enabled checks once clang has built the whole AST.
class CheckConsumer : public clang::ASTConsumer {
public:
  CheckConsumer(const ClangInvocation &invocation, const CheckRegistry &registry,
                const CheckSelection &selection, const CheckOptions &options,
                TranslationUnitOutcome &outcome)
      : invocation_(invocation), registry_(registry), selection_(selection),
        options_(options), outcome_(outcome) {}

  void HandleTranslationUnit(clang::ASTContext &ast) override {
    TranslationUnitInfo info;
    info.mainFile = invocation_.file;
    info.isCuda = invocation_.isCuda;
    info.perThreadDefaultStream = invocation_.perThreadDefaultStream;
    TranslationUnitContext context(ast, info, options_);
    reach::TranslationUnitReach reach(context);
    clang::ast_matchers::MatchFinder finder;
    std::vector<std::unique_ptr<Check>> checks;
    for (const CheckDescriptor &descriptor : registry_.checks()) {
      if (!selection_.enabled(descriptor.rule.id))
        continue;
      checks.push_back(descriptor.create(context));
      checks.back()->registerMatchers(finder);
    }
    // One walk for the call graph, only if an enabled check asked for it.
    if (reach.requested())
      reach.build();
    finder.matchAST(ast);
    outcome_.reach = reach.takeSummary();
    outcome_.findings = context.takeFindings();
    outcome_.checksRan = true;
  }

private:
  const ClangInvocation &invocation_;
  const CheckRegistry &registry_;
  const CheckSelection &selection_;
  const CheckOptions &options_;
  TranslationUnitOutcome &outcome_;
};

class CheckAction : public clang::ASTFrontendAction {
public:
  CheckAction(const ClangInvocation &invocation, const CheckRegistry &registry,
              const CheckSelection &selection, const CheckOptions &options,
              TranslationUnitOutcome &outcome)
      : invocation_(invocation), registry_(registry), selection_(selection),
        options_(options), outcome_(outcome) {}

  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &, llvm::StringRef) override {
    return std::make_unique<CheckConsumer>(invocation_, registry_, selection_,
                                           options_, outcome_);
  }

private:
  const ClangInvocation &invocation_;
  const CheckRegistry &registry_;
  const CheckSelection &selection_;
  const CheckOptions &options_;
  TranslationUnitOutcome &outcome_;
};

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
makeFileSystem(const ClangInvocation &invocation) {
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::createPhysicalFileSystem());
  if (!invocation.virtualFiles.empty()) {
    auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    for (const auto &[path, contents] : invocation.virtualFiles)
      memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(contents));
    overlay->pushOverlay(memory);
  }
  overlay->setCurrentWorkingDirectory(invocation.directory);
  return overlay;
}

} // namespace

TranslationUnitOutcome analyzeTranslationUnit(const ClangInvocation &invocation,
                                              const CheckRegistry &registry,
                                              const CheckSelection &selection,
                                              const CheckOptions &options) {
  TranslationUnitOutcome outcome;
  // -w: the user's warnings (and -Werror) are not ours to report, and without
  // carets clang prints no "N errors generated" line of its own; the main
  // file stays last.
  std::vector<std::string> args = invocation.args;
  args.insert(args.end() - (args.empty() ? 0 : 1), {"-w", "-fno-caret-diagnostics"});

  auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(
      clang::FileSystemOptions(), makeFileSystem(invocation));
  ErrorCollector errors;
  clang::tooling::ToolInvocation tool(
      args,
      std::make_unique<CheckAction>(invocation, registry, selection, options,
                                    outcome),
      files.get());
  tool.setDiagnosticConsumer(&errors);
  bool succeeded = tool.run();

  if (!succeeded || errors.getNumErrors() > 0) {
    TranslationUnitProblem problem;
    problem.file = invocation.file;
    problem.errors = errors.errors;
    if (errors.omitted)
      problem.errors.push_back("(" + std::to_string(errors.omitted) +
                               " more errors)");
    if (problem.errors.empty())
      problem.errors.push_back("clang could not run this compile command");
    // Checks ran if clang got as far as building (a recovered) AST.
    problem.analyzedPartially = outcome.checksRan;
    outcome.problem = std::move(problem);
  }
  return outcome;
}

} // namespace streamlint
