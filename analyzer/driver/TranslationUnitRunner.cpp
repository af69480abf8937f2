#include "analyzer/driver/TranslationUnitRunner.h"

#include "analyzer/analysis/AnalysisScope.h"
#include "analyzer/driver/CrashIsolation.h"
#include "analyzer/driver/PhaseTimes.h"
#include "analyzer/driver/PreambleParse.h"
#include "analyzer/analysis/CallerOrdering.h"
#include "analyzer/analysis/OrderingPart.h"
#include "analyzer/reach/TranslationUnitReach.h"
#include "analyzer/support/Paths.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/Attr.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/Sema.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <algorithm>
#include <cstdlib>
#include <set>

namespace streamlint {
namespace {

constexpr size_t MaxReportedErrors = 5;

/// Whether clang is inside a function only the GPU runs (`__device__` or
/// `__global__`, not `__host__`) as it reports an error: in a kernel's or a
/// device function's body or one of its template instantiations. The host
/// analysis reads no such body, so the error cannot hide a finding; and
/// this is where nvcc's EDG front end accepts what clang does not (a
/// `__shared__ cuda::barrier` default-constructed, nvcc's warning #20054; a
/// dependent member template called without `template`).
bool inDeviceOnlyFunction(const clang::CompilerInstance *compiler) {
  if (!compiler || !compiler->hasSema())
    return false;
  for (const clang::DeclContext *context = compiler->getSema().CurContext; context;
       context = context->getParent()) {
    const auto *function = llvm::dyn_cast<clang::FunctionDecl>(context);
    if (!function)
      continue;
    if (function->hasAttr<clang::CUDAHostAttr>())
      return false;
    if (function->hasAttr<clang::CUDADeviceAttr>() ||
        function->hasAttr<clang::CUDAGlobalAttr>())
      return true;
    const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(function);
    if (!(method && method->getParent()->isLambda()))
      return false; // a host function
  }
  return false;
}

/// Keeps clang's first errors as text; warnings are not the user's concern here.
class ErrorCollector : public clang::DiagnosticConsumer {
public:
  std::vector<std::string> errors;
  unsigned omitted = 0;
  /// Errors in device-only code: not counted (inDeviceOnlyFunction).
  unsigned deviceOnly = 0;
  /// The compiler of the TU being parsed, while it runs.
  const clang::CompilerInstance *compiler = nullptr;
  std::string fatal; // the first fatal error, formatted like `errors`
  /// When that fatal error is a missing include: its spelling, and the
  /// directory of the file that includes it.
  std::string missingInclude;
  std::string includerDirectory;

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic &info) override {
    if (level == clang::DiagnosticsEngine::Error && inDeviceOnlyFunction(compiler)) {
      ++deviceOnly; // not counted: cannot affect the host analysis
      return;
    }
    clang::DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error)
      return;
    bool isFatal = level == clang::DiagnosticsEngine::Fatal;
    if (errors.size() >= MaxReportedErrors && !(isFatal && fatal.empty())) {
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
    if (isFatal && fatal.empty()) {
      fatal = where + "fatal error: " + std::string(message);
      if (info.getID() == clang::diag::err_pp_file_not_found && info.getNumArgs() > 0 &&
          info.getArgKind(0) == clang::DiagnosticsEngine::ak_std_string) {
        missingInclude = info.getArgStdStr(0);
        if (info.getLocation().isValid() && info.hasSourceManager())
          includerDirectory = std::string(llvm::sys::path::parent_path(
              info.getSourceManager().getFilename(
                  info.getSourceManager().getExpansionLoc(info.getLocation()))));
      }
    }
    if (errors.size() < MaxReportedErrors)
      errors.push_back(where + (isFatal ? "fatal error: " : "error: ") +
                       std::string(message));
    else
      ++omitted;
  }
};

/// What one TU's check run reads and where it writes.
struct CheckRun {
  const ClangInvocation &invocation;
  const CheckRegistry &registry;
  const CheckSelection &selection;
  const CheckOptions &options;
  TranslationUnitOutcome &outcome;
  /// Clang's include search directories, in order; false if one is not a
  /// plain directory (a header map, a framework directory).
  std::vector<std::string> &searchDirectories;
  bool &searchDirectoriesPlain;
  ErrorCollector &errors; // told which compiler runs, while it runs
  /// An exception from the checks, held until clang has returned (it must
  /// not unwind through clang's frames, built without exceptions).
  std::optional<StepFailure> &failure;
  PhaseTimes &phases; // STREAMLINT_PHASE_TIMES
  /// The compiler of the TU being parsed, while it runs.
  clang::CompilerInstance *&compiler;
  /// Leave the AST to the process's exit, as clang's own -fsyntax-only
  /// does (-disable-free), once the checks ran without a parse error.
  bool keepAst;
  /// What the parse does with a preamble (filled before it begins).
  const PreambleUse &preamble;
};

/// Runs the enabled checks once clang has built the whole AST.
class CheckConsumer : public clang::ASTConsumer {
public:
  explicit CheckConsumer(const CheckRun &run) : run_(run) {}

  /// Clang hands each function whose body it instantiated here too.
  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    for (clang::Decl *decl : group)
      if (const auto *function = llvm::dyn_cast<clang::FunctionDecl>(decl))
        if (function->isTemplateInstantiation())
          instantiations_.push_back(function);
    return true;
  }

  /// Asked only when the invocation skips function bodies
  /// (ClangInvocation::parseLibraryBodies off).
  bool shouldSkipFunctionBody(clang::Decl *decl) override {
    return run_.compiler && skipsBodyOf(*decl, run_.compiler->getSourceManager());
  }

  void HandleTranslationUnit(clang::ASTContext &ast) override {
    StreamlintStep step("running the checks");
    try {
      runChecks(ast);
    } catch (const std::exception &e) {
      run_.failure.emplace("running the checks", e.what());
    }
  }

private:
  /// A test hook (tests/e2e/internal_errors.sh, docs/robustness.md):
  /// STREAMLINT_TEST_FAULT=exception:NAME or abort:NAME makes streamlint's
  /// own code fail in this step on the TU whose main file ends with NAME.
  void injectTestFault() const {
    const char *fault = std::getenv("STREAMLINT_TEST_FAULT");
    if (!fault)
      return;
    auto [kind, name] = llvm::StringRef(fault).split(':');
    if (name.empty() || !llvm::StringRef(run_.invocation.file).ends_with(name))
      return;
    if (kind == "exception")
      throw std::runtime_error("a test fault (STREAMLINT_TEST_FAULT)");
    if (kind == "abort")
      std::abort();
  }

  /// Objects for a shared library: -fPIC/-shared, or CMake's definition of
  /// <target>_EXPORTS for SHARED and MODULE targets.
  static bool isLibraryTarget(const std::vector<std::string> &args) {
    for (llvm::StringRef arg : args)
      if (arg == "-fPIC" || arg == "-fpic" || arg == "-shared" ||
          (arg.starts_with("-D") && arg.ends_with("_EXPORTS")))
        return true;
    return false;
  }

  void runChecks(clang::ASTContext &ast) {
    PhaseTimes &phases = run_.phases;
    phases.mark("parse");
    injectTestFault();
    TranslationUnitInfo info;
    info.mainFile = run_.invocation.file;
    info.perThreadDefaultStream = run_.invocation.perThreadDefaultStream;
    info.claimedSites = claimedSites(run_.registry, run_.selection);
    info.walkedDirectories = run_.invocation.walkedDirectories;
    info.instantiations = std::move(instantiations_);
    info.preambleInstantiationsNameProject =
        (run_.preamble.state == PreambleUse::Reused || run_.preamble.state == PreambleUse::Built) &&
        run_.preamble.instantiationsNameProject;
    TranslationUnitContext context(ast, info, run_.options);
    takeConditionalFixes(context); // none left by an earlier TU at this address
    reach::TranslationUnitReach reach(context);
    clang::ast_matchers::MatchFinder finder;
    std::vector<std::unique_ptr<Check>> checks;
    unsigned needs = 0;
    for (const CheckDescriptor &descriptor : run_.registry.checks()) {
      if (!run_.selection.enabled(descriptor.rule.id))
        continue;
      checks.push_back(descriptor.create(context));
      needs |= checks.back()->needs();
      if (checks.back()->needs() & NeedsAstMatches)
        checks.back()->registerMatchers(finder);
    }
    // System headers are outside every walk and the parent map
    // (analyzer/analysis/AnalysisScope.h).
    // ... and so are library headers outside the project when no finding
    // there is reported; the call graph then also finds the library
    // functions the project's code calls, which the other walks read.
    limitTraversalToUserCode(ast, run_.invocation.walkedDirectories);
    phases.mark("traversal scope");
    // One walk for the call graph, only if an enabled check or the scope
    // needs it; what it records depends on the CUDA API table alone.
    if ((needs & NeedsCallGraph) || !run_.invocation.walkedDirectories.empty())
      reach.build();
    addToTraversalScope(ast, context.pulledFunctions());
    phases.mark("call graph");
    if (needs & NeedsAstMatches)
      finder.matchAST(ast);
    phases.mark("matchers");
    for (const std::unique_ptr<Check> &check : checks)
      if (check->needs() & NeedsCallGraph)
        check->checkCallGraph(reach);
    phases.mark("call-graph checks");
    run_.outcome.reach = reach.takeSummary();
    // Each check's whole-program part, keyed by the check (WholeProgramPart.h).
    for (const std::unique_ptr<Check> &check : checks)
      if (PartFactsPtr facts = check->takePartFacts())
        run_.outcome.reach.parts[check->id()] = std::move(facts);
    // The shared stream-ordering part, for fixes decided by the whole
    // program (analysis/OrderingPart.h): every TU's calls count, whichever
    // checks it runs.
    ordering::OrderingFacts facts;
    facts.fixes = takeConditionalFixes(context);
    collectOrderingFacts(context, isLibraryTarget(run_.invocation.args), facts);
    run_.outcome.reach.parts[ordering::kOrderingPart] = ordering::orderingPartFacts(std::move(facts));
    phases.mark("ordering facts");
    run_.outcome.includes =
        filesRead(ast.getSourceManager(), run_.invocation.versionedDirectories);
    phases.mark("files read");
    run_.outcome.findings = context.takeFindings();
    run_.outcome.checksRan = true;
    // A TU with errors may be parsed again (without its preamble): its AST
    // is freed first.
    if (run_.keepAst && run_.compiler && run_.errors.getNumErrors() == 0)
      run_.compiler->getFrontendOpts().DisableFree = true;
  }

  const CheckRun &run_;
  std::vector<const clang::FunctionDecl *> instantiations_;
};

class CheckAction : public clang::ASTFrontendAction {
public:
  explicit CheckAction(const CheckRun &run) : run_(run) {}

  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &compiler, llvm::StringRef) override {
    run_.searchDirectoriesPlain = true;
    for (const clang::DirectoryLookup &lookup :
         compiler.getPreprocessor().getHeaderSearchInfo().search_dir_range()) {
      if (clang::OptionalDirectoryEntryRef directory = lookup.getDirRef())
        run_.searchDirectories.push_back(std::string(directory->getName()));
      else
        run_.searchDirectoriesPlain = false;
    }
    run_.errors.compiler = &compiler;
    run_.compiler = &compiler;
    return std::make_unique<CheckConsumer>(run_);
  }
  void EndSourceFileAction() override {
    run_.errors.compiler = nullptr;
    run_.compiler = nullptr;
  }

private:
  const CheckRun &run_;
};

/// Every path where `include` could have been found: beside its includer
/// and in each search directory (relative ones from `workingDirectory`).
/// Empty if one of them exists after all (never cache what cannot be pinned).
std::vector<std::string> placesLookedIn(const std::string &include,
                                        const std::string &includerDirectory,
                                        const std::vector<std::string> &searchDirectories,
                                        const std::string &workingDirectory) {
  std::vector<std::string> places;
  auto add = [&](llvm::StringRef directory) {
    llvm::SmallString<256> path;
    if (!llvm::sys::path::is_absolute(include)) {
      path = directory;
      if (!llvm::sys::path::is_absolute(path)) {
        path = workingDirectory;
        llvm::sys::path::append(path, directory);
      }
    }
    llvm::sys::path::append(path, include);
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/false);
    places.push_back(std::string(path));
  };
  if (llvm::sys::path::is_absolute(include)) {
    add("");
  } else {
    if (!includerDirectory.empty())
      add(includerDirectory);
    for (const std::string &directory : searchDirectories)
      add(directory);
  }
  for (const std::string &place : places)
    if (llvm::sys::fs::exists(place))
      return {};
  std::sort(places.begin(), places.end());
  places.erase(std::unique(places.begin(), places.end()), places.end());
  return places;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem>
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

/// The main file and every other file clang read (project headers, -I and
/// -isystem directories, the host compiler's), each with the digest of the
/// bytes it parsed (not re-read: an edit during the parse must make the
/// entry stale, not hide in it). Left out: the in-memory shims and the
/// directories known by version (the toolkit, clang's resource directory),
/// which are part of the key.

namespace {

/// One parse of `invocation` with the checks, on a preamble if `preamble`
/// allows one (`use` says what happened).
TranslationUnitOutcome parseAndCheck(const ClangInvocation &invocation,
                                              const CheckRegistry &registry,
                                              const CheckSelection &selection,
                                     const CheckOptions &options,
                                     const PreambleRequest &preamble, PreambleUse &use,
                                     bool keepAst) {
  TranslationUnitOutcome outcome;
  // -w: the user's warnings (and -Werror) are not ours to report, and without
  // carets clang prints no "N errors generated" line of its own; the main
  // file stays last.
  std::vector<std::string> args = invocation.args;
  args.insert(args.end() - (args.empty() ? 0 : 1), {"-w", "-fno-caret-diagnostics"});
  // System headers' function bodies are skipped where clang allows it
  // (CheckConsumer::shouldSkipFunctionBody; a preamble built for this parse
  // inherits it).
  if (!invocation.parseLibraryBodies)
    args.insert(args.end() - (args.empty() ? 0 : 1), {"-Xclang", "-skip-function-bodies"});

  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> fileSystem =
      makeFileSystem(invocation);
  auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(),
                                                             fileSystem);
  ErrorCollector errors;
  std::vector<std::string> searchDirectories;
  bool searchDirectoriesPlain = false;
  std::optional<StepFailure> failure;
  PhaseTimes phases(invocation.file);
  clang::CompilerInstance *compiler = nullptr;
  CheckRun run{invocation, registry,          selection,              options,
               outcome,    searchDirectories, searchDirectoriesPlain, errors,
               failure,    phases,            compiler,               keepAst,
               use};
  PreambleActionFactory action(std::make_unique<CheckAction>(run), preamble, fileSystem,
                               invocation.versionedDirectories, use, phases);
  clang::tooling::ToolInvocation tool(args, &action, files.get(),
                                      std::make_shared<clang::PCHContainerOperations>());
  tool.setDiagnosticConsumer(&errors);
  bool succeeded;
  {
    ClangWork parsing;
    succeeded = tool.run();
  }
  if (outcome.checksRan)
    phases.mark(keepAst ? "ending the parse (the AST kept)" : "freeing the AST");
  if (failure)
    throw *failure;

  if (!succeeded || errors.getNumErrors() > 0) {
    TranslationUnitProblem problem;
    problem.file = invocation.file;
    problem.errors = errors.errors;
    problem.fatalError = errors.fatal;
    if (errors.omitted)
      problem.errors.push_back("(" + std::to_string(errors.omitted) +
                               " more errors)");
    if (problem.errors.empty())
      problem.errors.push_back("clang could not run this compile command");
    // Checks ran if clang got as far as building (a recovered) AST.
    problem.analyzedPartially = outcome.checksRan;
    outcome.problem = std::move(problem);
    if (!errors.missingInclude.empty() && searchDirectoriesPlain)
      outcome.absentFiles = placesLookedIn(errors.missingInclude,
                                           errors.includerDirectory,
                                           searchDirectories, invocation.directory);
  }
  return outcome;
}

} // namespace

TranslationUnitOutcome analyzeTranslationUnit(const ClangInvocation &invocation,
                                              const CheckRegistry &registry,
                                              const CheckSelection &selection,
                                              const CheckOptions &options,
                                              const PreambleRequest &preamble,
                                              PreambleUse *used, bool keepAst) {
  PreambleUse use;
  TranslationUnitOutcome outcome =
      parseAndCheck(invocation, registry, selection, options, preamble, use, keepAst);
  if (use.state == PreambleUse::None || use.state == PreambleUse::Deferred) {
    if (used)
      *used = use;
    return outcome;
  }
  // On a preamble: kept only if clang reported no error and parsed the
  // main file the prefix was cut from; otherwise parsed again without one
  // (an error the preamble caused must not become the TU's, and a TU with
  // errors is reported as a parse without a preamble reports it).
  if (!outcome.problem && !outcome.includes.empty() &&
      outcome.includes.front().sha256 == use.mainDigest) {
    // What the prefix read is in the preamble, not in the parse's source
    // manager: the TU depends on it all the same.
    std::set<std::string> listed;
    for (const index::IncludedFile &file : outcome.includes)
      listed.insert(file.path);
    std::vector<index::IncludedFile> prefixFiles;
    for (index::IncludedFile &file : use.files)
      if (listed.insert(file.path).second)
        prefixFiles.push_back(std::move(file));
    outcome.includes.insert(outcome.includes.begin() + 1, prefixFiles.begin(),
                            prefixFiles.end());
    use.files.clear();
    if (used)
      *used = use;
    return outcome;
  }
  PreambleUse none;
  if (used)
    used->state = PreambleUse::None;
  return parseAndCheck(invocation, registry, selection, options, PreambleRequest{}, none,
                       keepAst);
}

} // namespace streamlint
