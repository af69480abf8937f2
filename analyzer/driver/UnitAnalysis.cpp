#include "analyzer/driver/UnitAnalysis.h"

#include "analyzer/driver/CrashIsolation.h"
#include "analyzer/driver/CudaUsageScan.h"
#include "analyzer/driver/PrefixCost.h"
#include "analyzer/driver/SharedPrefix.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cstdlib>
#include <map>
// GCC says __SANITIZE_ADDRESS__, clang __has_feature(address_sanitizer).
#if defined(__SANITIZE_ADDRESS__)
#define STREAMLINT_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STREAMLINT_UNDER_ASAN 1
#endif
#endif
#ifndef STREAMLINT_UNDER_ASAN
#define STREAMLINT_UNDER_ASAN 0
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace streamlint {
namespace {

/// What translation found wrong with the entry. An options file nvcc could
/// not open fails the TU as nvcc fails it, whatever clang made of the rest;
/// otherwise, when the TU fails, what translation could not do (a broken
/// toolkit) is usually why: said first.
void addTranslationProblems(const Toolchain &toolchain,
                            const ClangInvocation &invocation,
                            TranslationUnitOutcome &outcome) {
  std::vector<std::string> causes;
  for (const std::string &error : invocation.errors)
    causes.push_back("error: in the compile command: " + error);
  if (!causes.empty() && !outcome.problem) {
    outcome.problem.emplace();
    outcome.problem->file = invocation.file;
    outcome.problem->analyzedPartially = outcome.checksRan;
  }
  if (!outcome.problem)
    return;
  for (const std::string &note : toolchain.problems)
    causes.push_back("note: " + note);
  for (const std::string &note : invocation.warnings)
    causes.push_back("note: " + note);
  auto &errors = outcome.problem->errors;
  errors.insert(errors.begin(), causes.begin(), causes.end());
}

/// A TU whose analysis crashed or failed: nothing of it is kept, and the
/// report says whether clang or streamlint itself failed, and where.
TranslationUnitOutcome failedOutcome(const std::string &file,
                                     const IsolatedFailure &failure) {
  TranslationUnitOutcome outcome;
  TranslationUnitProblem &problem = outcome.problem.emplace();
  problem.file = file;
  problem.analyzedPartially = false;
  problem.crashed = !failure.internal();
  problem.internalError = failure.internal();
  problem.errors.push_back(
      failure.internal()
          ? "error: internal error in streamlint while " + failure.step + ": " +
                failure.what +
                "; none of its findings are reported (every other TU's are); "
                "this is a bug in streamlint, please report it"
          : "error: clang crashed while parsing this translation unit: " + failure.what +
                "; none of its findings are reported (every other TU's are)");
  return outcome;
}

/// The environment variables clang's driver adds include directories from:
/// the same command finds other headers when they change.
std::string includePathEnvironment() {
  std::string text;
  for (const char *name :
       {"CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH"}) {
    // Set but empty differs from unset: an empty element is ".".
    const char *value = std::getenv(name);
    text += std::string(name) + (value ? "=" + std::string(value) : " unset") + "\n";
  }
  return text;
}

/// Gives the heap a parsed TU left free back to the system, as clangd does
/// after each AST: without it the next TU of a -j1 run starts on top of
/// what glibc kept (freed ASTs fragment its arenas), and a run's peak
/// memory grew with the number of heavy TUs.
/// Not under AddressSanitizer: its allocator replaces glibc's, so glibc's
/// arenas hold nothing to give back, and the sanitizer suite saw two TU
/// threads deadlock on glibc's main arena lock inside malloc_trim
/// (e2e.output_failures, 2026-11-28).
void releaseFreedMemory() {
#if defined(__GLIBC__) && !STREAMLINT_UNDER_ASAN
  malloc_trim(0);
#endif
}

} // namespace

ClangInvocation invocationFor(const PlannedUnit &unit, const Toolchain &toolchain,
                              const TranslateOptions &options) {
  ClangInvocation invocation = translateForClang(unit.entry, toolchain, options);
  // Interpolated: the neighbour's command (its language, `-x`, included)
  // with the named file in place of the neighbour's, as clangd does.
  if (!unit.substituteFile.empty() && !invocation.args.empty()) {
    invocation.args.back() = unit.substituteFile;
    invocation.file = unit.substituteFile;
  }
  invocation.walkedDirectories = unit.walkedDirectories;
  invocation.parseLibraryBodies = options.parseLibraryBodies;
  return invocation;
}

namespace {

/// The parts of a parse key after the command: in-memory files, toolchain,
/// default stream, include path variables.
void addParseEnvironment(const ClangInvocation &invocation, const Toolchain &toolchain,
                         std::vector<std::string> &parts) {
  for (const auto &[path, contents] : invocation.virtualFiles) {
    parts.push_back(path);
    parts.push_back(index::sha256Hex(contents));
  }
  parts.push_back(toolchain.cudaPath + "\n" + toolchain.clangResourceDir + "\n" +
                  std::to_string(toolchain.cudaVersionMajor) + "." +
                  std::to_string(toolchain.cudaVersionMinor) + "." +
                  std::to_string(toolchain.cudaVersionBuild));
  parts.push_back(llvm::join(toolchain.problems, "\n"));
  parts.push_back(invocation.perThreadDefaultStream ? "ptds" : "legacy");
  parts.push_back(invocation.parseLibraryBodies ? "library bodies parsed"
                                                : "library bodies skipped");
  parts.push_back(includePathEnvironment());
}

} // namespace

std::string unitParseKey(const ClangInvocation &invocation, const Toolchain &toolchain) {
  std::vector<std::string> parts = {index::toolIdentity(), invocation.directory,
                                    invocation.file,
                                    llvm::join(invocation.args, std::string(1, '\0'))};
  addParseEnvironment(invocation, toolchain, parts);
  return index::keyOf(parts);
}

std::string sharedPreambleKey(const ClangInvocation &invocation, const Toolchain &toolchain) {
  // The command without its main file (the last argument, the only one
  // naming it: translation drops -o and the dependency-file flags), and the
  // main file's directory instead of its name: a quoted #include in the
  // prefix is looked up there first, so only TUs of one directory share.
  std::vector<std::string> command = invocation.args;
  if (!command.empty() && command.back() == invocation.file)
    command.pop_back();
  else
    command.push_back("\n" + invocation.file); // not the usual shape: not shared
  llvm::SmallString<256> mainFile(invocation.file);
  if (!llvm::sys::path::is_absolute(mainFile)) {
    mainFile = invocation.directory;
    llvm::sys::path::append(mainFile, invocation.file);
  }
  llvm::sys::path::remove_dots(mainFile, /*remove_dot_dot=*/true);
  std::vector<std::string> parts = {index::toolIdentity(), "shared preamble",
                                    invocation.directory,
                                    std::string(llvm::sys::path::parent_path(mainFile)),
                                    // the language may follow from it
                                    std::string(llvm::sys::path::extension(mainFile)),
                                    llvm::join(command, std::string(1, '\0'))};
  addParseEnvironment(invocation, toolchain, parts);
  return index::keyOf(parts);
}

std::vector<std::vector<std::string>> sharedPrefixesOf(const std::vector<PlannedUnit> &units,
                                                       const AnalyzerOptions &options,
                                                       const std::string &costDirectory) {
  std::map<std::string, std::vector<size_t>> groups; // by preamble key
  std::vector<std::vector<PrefixDirective>> directives(units.size());
  std::vector<ClangInvocation> invocations(units.size());
  for (size_t i = 0; i < units.size(); ++i) {
    Toolchain toolchain = locateToolchain(&units[i].entry);
    ClangInvocation &invocation = invocations[i];
    invocation = invocationFor(units[i], toolchain, options.translate);
    llvm::SmallString<256> path(invocation.file);
    llvm::sys::path::make_absolute(invocation.directory, path);
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                              /*RequiresNullTerminator=*/false);
    if (!buffer)
      continue; // its parse reports it
    // The whole file: the directives stop at its first declaration.
    directives[i] = shareableDirectives((*buffer)->getBuffer(), (*buffer)->getBufferSize());
    if (!directives[i].empty())
      groups[sharedPreambleKey(invocation, toolchain)].push_back(i);
  }
  std::vector<std::vector<std::string>> shared(units.size());
  for (const auto &[key, members] : groups) {
    std::vector<std::vector<PrefixDirective>> prefixes;
    for (size_t member : members)
      prefixes.push_back(directives[member]);
    // Any member measures a run alike: the same command and directory.
    const ClangInvocation &measured = invocations[members.front()];
    std::string groupKey = key;
    std::vector<std::vector<std::string>> common = sharedDirectivesOf(
        prefixes, [&](const std::vector<std::string> &run) {
          std::vector<double> counts;
          auto measure = [&] {
            ClangWork preprocessing;
            counts = storedPrefixTokenCounts(measured, run, costDirectory, groupKey);
          };
          // A crash is the parse's to report; the run is costed by its length.
          if (!options.crashRecovery)
            measure();
          else if (runIsolated(measure))
            counts.clear();
          return counts;
        });
    for (size_t k = 0; k < members.size(); ++k)
      shared[members[k]] = std::move(common[k]);
  }
  return shared;
}

std::string unitKey(const ClangInvocation &invocation, const Toolchain &toolchain,
                    const EffectiveConfig &config) {
  std::vector<std::string> parts = {unitParseKey(invocation, toolchain)};
  parts.push_back("checks=" + config.checks);
  // What the checks walk (AnalysisScope.h); absent when all of it.
  if (!invocation.walkedDirectories.empty())
    parts.push_back("walked=" + llvm::join(invocation.walkedDirectories, std::string(1, '\0')));
  for (const auto &[name, value] : config.checkOptions.all())
    parts.push_back(name + "=" + value);
  return index::keyOf(parts);
}

UnitResult analyzePlannedUnit(const PlannedUnit &unit, bool skipWithoutCuda,
                              const AnalyzerOptions &options,
                              const CheckRegistry &registry,
                              index::ProjectIndex *index,
                              index::PreambleStore *preambles, bool lastOfProcess,
                              const std::vector<std::string> &sharedPrefix) {
  UnitResult result;
  auto analyze = [&] {
    StreamlintStep step("preparing the translation unit");
    Toolchain toolchain = locateToolchain(&unit.entry);
    ClangInvocation invocation = invocationFor(unit, toolchain, options.translate);
    if (skipWithoutCuda) {
      ClangWork preprocessing;
      if (!translationUnitUsesCuda(invocation, toolchain)) {
        result.outcome.skippedWithoutCuda = true;
        return;
      }
    }
    std::string key;
    if (index) {
      StreamlintStep reading("reading the index entry");
      key = unitKey(invocation, toolchain, unit.config);
      if (std::optional<index::IndexedUnit> cached = index->lookup(key)) {
        result.outcome.findings = std::move(cached->findings);
        result.outcome.reach = std::move(cached->reach);
        result.outcome.includes = std::move(cached->includes);
        result.outcome.problem = std::move(cached->problem);
        result.outcome.absentFiles = std::move(cached->absent);
        result.outcome.checksRan = true;
        result.fromIndex = true;
        addTranslationProblems(toolchain, invocation, result.outcome);
        return;
      }
    }
    PreambleRequest preamble;
    if (preambles) {
      preamble.store = preambles;
      preamble.parseKey = sharedPreambleKey(invocation, toolchain);
      preamble.sharedPrefix = sharedPrefix;
      // A prefix of its own is built once the TU is analyzed again (its
      // entry is stale), or when the run keeps no index to tell.
      preamble.buildMissing = !sharedPrefix.empty() || !index || index->hasEntry(key);
    }
    PreambleUse used;
    // The last TU's AST is left to the exit, as clang's -fsyntax-only
    // leaves it (on fused_ops.cu freeing it took 0.3 s). Not when an index
    // entry is stored after it: serializing a heavy TU's entry (64 MB on
    // fused_ops.cu) on top of the AST raised the run's peak by 300 MiB.
    // Never under AddressSanitizer, whose leak check would report it.
    bool keepAst = lastOfProcess && !index && !STREAMLINT_UNDER_ASAN;
    result.outcome = analyzeTranslationUnit(invocation, registry,
                                            CheckSelection(unit.config.checks),
                                            unit.config.checkOptions, preamble, &used,
                                            keepAst);
    result.preamble = used.state;
    releaseFreedMemory();
    // Clean results and recoverable errors are kept, and so is a missing
    // include with every place clang looked for it (the entry is stale once
    // one exists); another fatal error may go away by a change outside the
    // files read, and is parsed again every time.
    const std::optional<TranslationUnitProblem> &problem = result.outcome.problem;
    bool kept = !problem || (!problem->crashed && !problem->internalError &&
                             result.outcome.checksRan &&
                             (problem->fatalError.empty() ||
                              !result.outcome.absentFiles.empty()));
    if (index && kept && invocation.errors.empty() && !result.outcome.includes.empty()) {
      StreamlintStep storing("storing the index entry");
      index->store(key, {result.outcome.findings, result.outcome.reach,
                         result.outcome.includes, problem,
                         result.outcome.absentFiles});
    }
    addTranslationProblems(toolchain, invocation, result.outcome);
  };
  std::optional<IsolatedFailure> failure;
  if (options.crashRecovery)
    failure = runIsolated(analyze);
  else
    analyze();
  if (failure) {
    result.preamble = PreambleUse::None;
    result.outcome = failedOutcome(
        unit.substituteFile.empty() ? unit.entry.file : unit.substituteFile, *failure);
    result.fromIndex = false;
  }
  return result;
}

} // namespace streamlint
