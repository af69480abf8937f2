#include "analyzer/driver/Analyzer.h"
#include "analyzer/driver/CudaUsageScan.h"

#include "analyzer/driver/CrashIsolation.h"
#include "analyzer/driver/TranslationUnitRunner.h"
#include "analyzer/reach/ReachResolution.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <set>
#include <thread>

namespace streamlint {
namespace {

llvm::Error inputError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string normalizedPath(llvm::StringRef path) {
  llvm::SmallString<256> absolute(path);
  llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  llvm::SmallString<256> real;
  if (!llvm::sys::fs::real_path(absolute, real))
    return std::string(real);
  return std::string(absolute);
}

/// Absolute, without "." or ".." (as findings' paths are); no symlinks resolved.
std::string cleanPath(llvm::StringRef path) {
  llvm::SmallString<256> absolute(path);
  llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  return std::string(absolute);
}

bool sameFinding(const Finding &a, const Finding &b) {
  return a.checkId == b.checkId && a.location.file == b.location.file &&
         a.location.line == b.location.line &&
         a.location.column == b.location.column && a.message == b.message;
}

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

/// A TU whose parse crashed: nothing of it is kept, and the report says so.
TranslationUnitOutcome crashedOutcome(const std::string &file,
                                      const std::string &what) {
  TranslationUnitOutcome outcome;
  outcome.problem.emplace();
  outcome.problem->file = file;
  outcome.problem->analyzedPartially = false;
  outcome.problem->crashed = true;
  outcome.problem->errors.push_back(
      "error: clang crashed while parsing this translation unit: " + what +
      "; none of its findings are reported (every other TU's are)");
  return outcome;
}

} // namespace

std::string findCompileDatabase(const std::string &start) {
  llvm::SmallString<256> directory(normalizedPath(start));
  while (!directory.empty()) {
    for (const char *candidate : {"compile_commands.json",
                                  "build/compile_commands.json"}) {
      llvm::SmallString<256> path(directory);
      llvm::sys::path::append(path, candidate);
      if (llvm::sys::fs::exists(path))
        return std::string(llvm::sys::path::parent_path(path));
    }
    llvm::StringRef parent = llvm::sys::path::parent_path(directory);
    if (parent == directory)
      break;
    directory = parent;
  }
  return "";
}

AnalysisResult runPlan(const AnalysisPlan &plan, const AnalyzerOptions &options,
                       const CheckRegistry &registry) {
  const std::vector<PlannedUnit> &units = plan.units;
  std::vector<TranslationUnitOutcome> outcomes(units.size());
  unsigned jobs = options.jobs ? options.jobs
                               : std::max(1u, std::thread::hardware_concurrency());
  {
    llvm::StdThreadPool pool(llvm::hardware_concurrency(jobs));
    for (size_t i = 0; i < units.size(); ++i) {
      pool.async([&, i] {
        const PlannedUnit &unit = units[i];
        auto analyze = [&] {
          Toolchain toolchain = locateToolchain(&unit.entry);
          ClangInvocation invocation =
              translateForClang(unit.entry, toolchain, options.translate);
          if (options.skipTranslationUnitsWithoutCuda &&
              !translationUnitUsesCuda(invocation, toolchain)) {
            outcomes[i].skippedWithoutCuda = true;
            return;
          }
          outcomes[i] = analyzeTranslationUnit(
              invocation, registry, CheckSelection(unit.config.checks),
              unit.config.checkOptions);
          addTranslationProblems(toolchain, invocation, outcomes[i]);
        };
        std::optional<std::string> crash;
        if (options.crashRecovery)
          crash = runIsolated(analyze);
        else
          analyze();
        if (crash)
          outcomes[i] = crashedOutcome(unit.entry.file, *crash);
      });
    }
    pool.wait();
  }

  // Outcomes are in database order whatever -j was; sorting makes the
  // output independent of the order too.
  AnalysisResult result;
  for (const TranslationUnitOutcome &outcome : outcomes)
    result.skippedWithoutCuda += outcome.skippedWithoutCuda;
  result.translationUnits = units.size() - result.skippedWithoutCuda;
  reach::ProgramSummary program;
  std::vector<std::string> mainFiles;
  for (const PlannedUnit &unit : units)
    mainFiles.push_back(cleanPath(unit.entry.file));
  for (size_t i = 0; i < units.size(); ++i) {
    // The TU's config decides which headers it reports in (HeaderFilterRegex,
    // ExcludePaths).
    for (Finding &finding : outcomes[i].findings)
      if (units[i].config.reportsIn(finding.location.file, mainFiles[i]))
        result.findings.push_back(std::move(finding));
    if (outcomes[i].problem)
      result.problems.push_back(std::move(*outcomes[i].problem));
    program.add(std::move(outcomes[i].reach));
  }
  // Whole-program pass: findings whose verdict depends on other functions
  // or TUs (hot paths through calls, host-callback reach).
  // They are filtered like the others: kept if some TU's config reports there.
  for (Finding &finding : reach::resolveSites(std::move(program))) {
    bool reported = false;
    for (size_t i = 0; i < units.size() && !reported; ++i)
      reported = units[i].config.reportsIn(finding.location.file, mainFiles[i]);
    if (reported)
      result.findings.push_back(std::move(finding));
  }
  std::stable_sort(result.findings.begin(), result.findings.end(), findingLess);
  // A header included by several TUs reports once.
  result.findings.erase(std::unique(result.findings.begin(),
                                    result.findings.end(), sameFinding),
                        result.findings.end());
  return result;
}

AnalysisResult analyzeEntries(const std::vector<CompileEntry> &entries,
                              const AnalyzerOptions &options,
                              const CheckRegistry &registry) {
  AnalysisPlan plan;
  for (const CompileEntry &entry : entries) {
    PlannedUnit unit{entry, {}};
    unit.config.checks = options.checks;
    unit.config.checkOptions = options.checkOptions;
    plan.units.push_back(std::move(unit));
  }
  return runPlan(plan, options, registry);
}

/// The database's entries for the named files (all if none are named).
static llvm::Expected<AnalysisPlan> selectEntries(const AnalyzerOptions &options) {
  std::string buildPath = options.buildPath;
  if (buildPath.empty()) {
    buildPath = findCompileDatabase(".");
    if (buildPath.empty())
      return inputError("no compile_commands.json found in the current "
                        "directory or its parents (or their build/); pass -p "
                        "<build-dir>");
  }
  auto entries = loadCompileDatabase(buildPath);
  if (!entries)
    return entries.takeError();

  AnalysisPlan plan;
  plan.databasePath = buildPath;
  if (llvm::sys::fs::is_directory(buildPath)) {
    llvm::SmallString<256> path(buildPath);
    llvm::sys::path::append(path, "compile_commands.json");
    plan.databasePath = std::string(path);
  }
  for (const CompileEntry &entry : *entries)
    plan.databaseFiles.push_back(entry.file);
  if (options.files.empty()) {
    for (CompileEntry &entry : *entries)
      plan.units.push_back({std::move(entry), {}});
    return plan;
  }

  // Each entry's path is resolved once (real_path is a syscall per component).
  std::vector<std::string> entryPaths;
  for (const CompileEntry &entry : *entries)
    entryPaths.push_back(normalizedPath(entry.file));
  std::set<size_t> taken;
  for (const std::string &file : options.files) {
    std::string wanted = normalizedPath(file);
    bool found = false;
    for (size_t i = 0; i < entries->size(); ++i) {
      if (entryPaths[i] != wanted)
        continue;
      found = true;
      if (taken.insert(i).second)
        plan.units.push_back({(*entries)[i], {}});
    }
    if (!found && options.skipFilesNotInDatabase)
      plan.skippedFiles.push_back(file);
    else if (!found)
      return inputError(file + ": no entry for this file in the compile "
                               "database " + buildPath);
  }
  return plan;
}

llvm::Expected<AnalysisPlan> planAnalysis(const AnalyzerOptions &options,
                                          const CheckRegistry &registry) {
  auto plan = selectEntries(options);
  if (!plan)
    return plan.takeError();
  if (!options.config) {
    for (PlannedUnit &unit : plan->units) {
      unit.config.checks = options.checks;
      unit.config.checkOptions = options.checkOptions;
    }
    return plan;
  }
  OptionCatalog catalog = registry.optionCatalog();
  ConfigResolver resolver(*options.config, catalog.checks, catalog);
  std::vector<PlannedUnit> kept;
  for (PlannedUnit &unit : plan->units) {
    std::string mainFile = cleanPath(unit.entry.file);
    auto config = resolver.configFor(mainFile);
    if (!config)
      return config.takeError();
    unit.config = std::move(*config);
    if (unit.config.excludes(mainFile))
      plan->excludedFiles.push_back(unit.entry.file);
    else
      kept.push_back(std::move(unit));
  }
  plan->units = std::move(kept);
  return plan;
}

llvm::Expected<AnalysisResult> runAnalysis(const AnalyzerOptions &options,
                                           const CheckRegistry &registry) {
  auto plan = planAnalysis(options, registry);
  if (!plan)
    return plan.takeError();
  return runPlan(*plan, options, registry);
}

llvm::Expected<std::vector<ClangInvocation>>
listInvocations(const AnalyzerOptions &options) {
  auto plan = selectEntries(options);
  if (!plan)
    return plan.takeError();
  std::vector<ClangInvocation> invocations;
  for (const PlannedUnit &unit : plan->units)
    invocations.push_back(translateForClang(unit.entry, locateToolchain(&unit.entry),
                                            options.translate));
  return invocations;
}

} // namespace streamlint
