// Running an analysis plan: the units parsed (in threads, answered from the
// project index where it can), then the report put together from their results
// and the whole-program pass. Planning is in AnalysisPlanning.cpp.
#include "analyzer/driver/Analyzer.h"

#include "analyzer/driver/NamedFiles.h"
#include "analyzer/driver/PrefixCost.h"
#include "analyzer/driver/Progress.h"
#include "analyzer/driver/ThirdPartyHeaders.h"
#include "analyzer/driver/UnitAnalysis.h"
#include "analyzer/reach/ReachResolution.h"
#include "analyzer/fix/FixPrerequisites.h"
#include "checks/CheckRegistry.h"
#include "analyzer/support/Paths.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <thread>
#include <tuple>

namespace streamlint {
namespace {

bool sameFinding(const Finding &a, const Finding &b) {
  return a.checkId == b.checkId && a.location.file == b.location.file &&
         a.location.line == b.location.line &&
         a.location.column == b.location.column && a.message == b.message;
}

/// Which files a run naming files reports in: the named files and the
/// headers their TUs include; everywhere when no file is named.
struct ReportScope {
  bool all = true;
  std::set<std::string> files;
  std::set<std::string> namedHeaders;
  bool covers(const std::string &file) const { return all || files.count(file); }
};

/// A named header's analysis when no TU of the database includes it: the
/// nearest entry's command with the header in place of its file.
std::optional<PlannedUnit> interpolatedHeaderUnit(const AnalysisPlan &plan,
                                                  const NamedHeader &header) {
  std::vector<CompileEntry> entries;
  for (const PlannedUnit &unit : plan.units)
    if (unit.substituteFile.empty())
      entries.push_back(unit.entry);
  if (entries.empty())
    return std::nullopt;
  PlannedUnit unit{entries[nearestEntry(entries, header.path)], header.config};
  unit.walkedDirectories = walkedDirectoriesIn(plan, unit.config);
  unit.substituteFile = header.path;
  return unit;
}

/// Named headers are reported through every TU that includes them (their
/// include lists, read from the index or just parsed); one that no TU
/// includes is added to `units` with a neighbour's command.
void addNamedHeaders(const AnalysisPlan &plan, const std::vector<UnitResult> &results,
                     ReportScope &scope, std::vector<PlannedUnit> &units,
                     std::vector<std::string> &notes) {
  std::map<std::string, std::string> realPaths; // included path -> real path
  auto realPathCached = [&](const std::string &path) -> const std::string & {
    auto found = realPaths.find(path);
    if (found == realPaths.end())
      found = realPaths.emplace(path, realPathOf(path)).first;
    return found->second;
  };
  for (const NamedHeader &header : plan.namedHeaders) {
    scope.files.insert(header.path);
    scope.namedHeaders.insert(header.path);
    bool included = false;
    for (size_t i = 0; i < results.size(); ++i)
      for (const index::IncludedFile &file : results[i].outcome.includes)
        if (llvm::sys::path::filename(file.path) ==
                llvm::sys::path::filename(header.path) &&
            realPathCached(file.path) == header.realPath) {
          included = true;
          scope.files.insert(file.path); // as the TU spelled it
          scope.namedHeaders.insert(file.path);
        }
    if (included)
      continue;
    std::optional<PlannedUnit> unit = interpolatedHeaderUnit(plan, header);
    if (!unit) {
      notes.push_back(header.path + ": no translation unit includes it and the "
                      "compile database has no entry to borrow a command from; "
                      "not analyzed");
      continue;
    }
    notes.push_back(header.path + ": no translation unit of the compile database "
                    "includes it; analyzed with the command of " +
                    unit->entry.file + " (interpolated)");
    units.push_back(std::move(*unit));
  }
}

} // namespace


/// The index a run reads and writes, if any.
static std::unique_ptr<index::ProjectIndex> openIndex(const AnalysisPlan &plan) {
  if (plan.cacheDirectory.empty())
    return nullptr;
  return index::ProjectIndex::open(plan.cacheDirectory);
}

void analyzeUnits(const std::vector<PlannedUnit> &units, size_t first,
                  std::vector<UnitResult> &results, const AnalyzerOptions &options,
                  const CheckRegistry &registry, index::ProjectIndex *index,
                  bool lastBatch) {
  results.resize(units.size());
  std::unique_ptr<index::PreambleStore> preambles;
  std::vector<std::vector<std::string>> sharedPrefixes(units.size());
  if (index && options.preambles) {
    preambles = std::make_unique<index::PreambleStore>(*index, options.preambleLimitBytes);
    // The directory is checked before anything is kept in it.
    llvm::SmallString<256> costs;
    if (preambles->usable()) {
      costs = index->directory();
      llvm::sys::path::append(costs, "preamble-costs");
    }
    sharedPrefixes = sharedPrefixesOf(units, options, std::string(costs));
    if (!costs.empty())
      evictPrefixCosts(std::string(costs), kPrefixCostFilesKept);
  }
  unsigned jobs = options.jobs ? options.jobs
                               : std::max(1u, std::thread::hardware_concurrency());
  llvm::StdThreadPool pool(llvm::hardware_concurrency(jobs));
  Progress progress(options.progress && first < units.size(), units.size() - first);
  // A process that parses one TU only keeps its AST to the exit. Not the
  // last of several: the whole-program pass then runs over every TU's
  // summary on top of the kept AST (the 3 TUs of the torch extension:
  // peak +108 MiB).
  bool onlyUnit = lastBatch && first == 0 && units.size() == 1;
  for (size_t i = first; i < units.size(); ++i)
    pool.async([&, i] {
      bool skip = units[i].reported ? options.skipTranslationUnitsWithoutCuda
                                    : options.skipContextWithoutCuda;
      results[i] = analyzePlannedUnit(units[i], skip, options, registry, index,
                                      preambles.get(), onlyUnit, sharedPrefixes[i]);
      const PlannedUnit &unit = units[i];
      progress.finished(unit.substituteFile.empty() ? unit.entry.file : unit.substituteFile,
                        results[i].fromIndex, results[i].outcome.skippedWithoutCuda);
    });
  pool.wait();
}

/// The report from every unit's result: each TU's findings where its config
/// reports them and `scope` covers them, then the whole-program pass.
static AnalysisResult assembleResult(const std::vector<PlannedUnit> &units,
                                     std::vector<UnitResult> &results,
                                     ReportScope &scope, AnalysisResult result,
                                     index::ProjectIndex *index,
                                     const std::vector<std::string> &projectDirectories,
                                     SummaryCounts *counts) {
  SummaryCounts ignored;
  if (!counts)
    counts = &ignored;
  std::vector<std::string> mainFiles;
  for (const PlannedUnit &unit : units)
    mainFiles.push_back(absolutePath(unit.substituteFile.empty() ? unit.entry.file
                                                              : unit.substituteFile));
  for (size_t i = 0; i < units.size(); ++i)
    if (units[i].reported) {
      scope.files.insert(mainFiles[i]);
      for (const index::IncludedFile &file : results[i].outcome.includes)
        scope.files.insert(file.path);
    }
  // A named header is reported unless its config excludes it (clang-tidy
  // reports a file it is asked about); other files as the TU's config says.
  // A header outside the project is left out while no header filter of the
  // user's says which headers to report; counted once per distinct finding.
  std::set<std::tuple<std::string, unsigned, unsigned, std::string, std::string>> hidden;
  auto reportedBy = [&](const std::string &file, size_t unit) {
    if (scope.namedHeaders.count(file))
      return !units[unit].config.excludes(file);
    return units[unit].config.reportsIn(file, mainFiles[unit]);
  };
  auto thirdParty = [&](const Finding &finding, size_t unit) {
    const std::string &file = finding.location.file;
    if (file == mainFiles[unit] || scope.namedHeaders.count(file) ||
        !units[unit].config.headerFilterRegex.empty() ||
        !outsideProject(file, projectDirectories))
      return false;
    hidden.insert({file, finding.location.line, finding.location.column, finding.checkId,
                   finding.message});
    return true;
  };

  // A context TU through which a named header is reported counts among the
  // TUs the report covers.
  auto reportsNamedHeader = [&](size_t unit) {
    for (const index::IncludedFile &file : results[unit].outcome.includes)
      if (scope.namedHeaders.count(file.path))
        return true;
    return false;
  };

  reach::ProgramSummary program;
  std::vector<Finding> filtered; // covered, but outside the header filter
  unsigned contextProblems = 0;
  for (size_t i = 0; i < units.size(); ++i) {
    TranslationUnitOutcome &outcome = results[i].outcome;
    result.fromIndex += results[i].fromIndex;
    counts->parsed += !results[i].fromIndex && !outcome.skippedWithoutCuda;
    counts->preamblesReused += results[i].preamble == PreambleUse::Reused;
    counts->preamblesBuilt += results[i].preamble == PreambleUse::Built;
    counts->preamblesDeferred += results[i].preamble == PreambleUse::Deferred;
    if (units[i].reported) {
      result.skippedWithoutCuda += outcome.skippedWithoutCuda;
      result.translationUnits += !outcome.skippedWithoutCuda;
    } else if (reportsNamedHeader(i)) {
      result.translationUnits += !outcome.skippedWithoutCuda;
    }
    for (Finding &finding : outcome.findings) {
      if (!scope.covers(finding.location.file))
        continue;
      if (!reportedBy(finding.location.file, i)) {
        if (units[i].reported)
          filtered.push_back(std::move(finding));
      } else if (!thirdParty(finding, i)) {
        result.findings.push_back(std::move(finding));
      }
    }
    if (outcome.problem && units[i].reported)
      result.problems.push_back(std::move(*outcome.problem));
    else if (outcome.problem)
      ++contextProblems;
    program.add(std::move(outcome.reach));
  }
  if (contextProblems)
    result.notes.push_back(
        std::to_string(contextProblems) + " other translation unit(s) of the "
        "compile database, analyzed for whole-program context, could not be "
        "analyzed fully; findings that depend on them may be missing (a run "
        "naming no file shows why)");
  if (index)
    for (std::string &note : index->takeNotes())
      result.notes.push_back(std::move(note));
  // Whole-program pass: findings whose verdict depends on other functions
  // or TUs (hot paths through calls, host-callback reach).
  // They are filtered like the others: kept if some TU's config reports there.
  // Parts that amend the findings reported keep their facts for the end.
  std::map<std::string, std::vector<PartFactsPtr>> parts = program.parts;
  for (Finding &finding : reach::resolveSites(std::move(program))) {
    if (!scope.covers(finding.location.file))
      continue;
    bool reported = false;
    size_t by = 0;
    for (; by < units.size() && !reported; ++by)
      reported = reportedBy(finding.location.file, by);
    if (!reported)
      filtered.push_back(std::move(finding));
    else if (!thirdParty(finding, by - 1))
      result.findings.push_back(std::move(finding));
  }
  // Fixes whose ordering verdict the program's callers decide (docs/fixes.md,
  // the shared ordering part).
  reach::amendFindings(parts, result.findings);
  result.hiddenThirdParty = static_cast<unsigned>(hidden.size());
  std::stable_sort(result.findings.begin(), result.findings.end(), findingLess);
  // A header included by several TUs reports once.
  result.findings.erase(std::unique(result.findings.begin(),
                                    result.findings.end(), sameFinding),
                        result.findings.end());
  // A fix relying on another check's fix (analyzer/fix/FixPrerequisites.h)
  // is a suggestion where that fix is not reported applicable.
  settleFixPrerequisites(result.findings, [&](const FixPrerequisite &prerequisite) {
    bool enabled = llvm::any_of(units, [&](const PlannedUnit &unit) {
      return unit.reported && CheckSelection(unit.config.checks).enabled(prerequisite.checkId);
    });
    return prerequisite.checkId + (enabled ? " reports no such fix in this run"
                                           : " is not enabled in this run");
  });
  // Counted once each, and not when another TU's config reports it.
  std::stable_sort(filtered.begin(), filtered.end(), findingLess);
  filtered.erase(std::unique(filtered.begin(), filtered.end(), sameFinding), filtered.end());
  for (const Finding &finding : filtered)
    counts->headerFilter += !std::binary_search(
        result.findings.begin(), result.findings.end(), finding, findingLess);
  return result;
}

AnalysisResult resultOfWholeDatabase(const AnalysisPlan &plan,
                                     std::vector<UnitResult> results,
                                     SummaryCounts *counts) {
  ReportScope scope;
  AnalysisResult result;
  result.notes = plan.notes;
  return assembleResult(plan.units, results, scope, std::move(result), nullptr,
                        plan.projectDirectories, counts);
}

AnalysisResult runPlan(const AnalysisPlan &plan, const AnalyzerOptions &options,
                       const CheckRegistry &registry, SummaryCounts *counts) {
  std::vector<PlannedUnit> units = plan.units;
  std::vector<UnitResult> results;
  std::unique_ptr<index::ProjectIndex> index = openIndex(plan);
  // Named files may add context TUs (addNamedHeaders): a second batch.
  analyzeUnits(units, 0, results, options, registry, index.get(), !plan.namedFiles);

  AnalysisResult result;
  result.notes = plan.notes;
  ReportScope scope;
  scope.all = !plan.namedFiles;
  size_t databaseUnits = units.size();
  addNamedHeaders(plan, results, scope, units, result.notes);
  analyzeUnits(units, databaseUnits, results, options, registry, index.get(), true);
  return assembleResult(units, results, scope, std::move(result), index.get(),
                        plan.projectDirectories, counts);
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
  if (!options.reportThirdPartyHeaders)
    plan.projectDirectories = projectDirectories(entries, options.fixRoot);
  for (PlannedUnit &unit : plan.units)
    unit.walkedDirectories = walkedDirectoriesIn(plan, unit.config);
  return runPlan(plan, options, registry);
}

llvm::Expected<AnalysisResult> runAnalysis(const AnalyzerOptions &options,
                                           const CheckRegistry &registry) {
  auto plan = planAnalysis(options, registry);
  if (!plan)
    return plan.takeError();
  return runPlan(*plan, options, registry);
}

} // namespace streamlint
