#include "analyzer/driver/Analyzer.h"

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

bool sameFinding(const Finding &a, const Finding &b) {
  return a.checkId == b.checkId && a.location.file == b.location.file &&
         a.location.line == b.location.line &&
         a.location.column == b.location.column && a.message == b.message;
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

AnalysisResult analyzeEntries(const std::vector<CompileEntry> &entries,
                              const AnalyzerOptions &options,
                              const CheckRegistry &registry) {
  CheckSelection selection(options.checks);
  std::vector<TranslationUnitOutcome> outcomes(entries.size());
  unsigned jobs = options.jobs ? options.jobs
                               : std::max(1u, std::thread::hardware_concurrency());
  {
    llvm::StdThreadPool pool(llvm::hardware_concurrency(jobs));
    for (size_t i = 0; i < entries.size(); ++i) {
      pool.async([&, i] {
        Toolchain toolchain = locateToolchain(&entries[i]);
        ClangInvocation invocation =
            translateForClang(entries[i], toolchain, options.translate);
        outcomes[i] = analyzeTranslationUnit(invocation, registry, selection,
                                             options.checkOptions);
      });
    }
    pool.wait();
  }

  // Outcomes are in database order whatever -j was; sorting makes the
  // output independent of the order too.
  AnalysisResult result;
  result.translationUnits = entries.size();
  reach::ProgramSummary program;
  for (TranslationUnitOutcome &outcome : outcomes) {
    for (Finding &finding : outcome.findings)
      result.findings.push_back(std::move(finding));
    if (outcome.problem)
      result.problems.push_back(std::move(*outcome.problem));
    program.add(std::move(outcome.reach));
  }
  // Whole-program pass: findings whose verdict depends on other functions
  // or TUs (hot paths through calls, host-callback reach).
  for (Finding &finding : reach::resolveSites(std::move(program)))
    result.findings.push_back(std::move(finding));
  std::stable_sort(result.findings.begin(), result.findings.end(), findingLess);
  // A header included by several TUs reports once.
  result.findings.erase(std::unique(result.findings.begin(),
                                    result.findings.end(), sameFinding),
                        result.findings.end());
  return result;
}

static llvm::Expected<std::vector<CompileEntry>>
selectEntries(const AnalyzerOptions &options) {
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

  if (options.files.empty())
    return std::move(*entries);

  std::vector<CompileEntry> selected;
  std::set<size_t> taken;
  for (const std::string &file : options.files) {
    std::string wanted = normalizedPath(file);
    bool found = false;
    for (size_t i = 0; i < entries->size(); ++i) {
      if (normalizedPath((*entries)[i].file) != wanted)
        continue;
      found = true;
      if (taken.insert(i).second)
        selected.push_back((*entries)[i]);
    }
    if (!found)
      return inputError(file + ": no entry for this file in the compile "
                               "database " + buildPath);
  }
  return selected;
}

llvm::Expected<AnalysisResult> runAnalysis(const AnalyzerOptions &options,
                                           const CheckRegistry &registry) {
  auto entries = selectEntries(options);
  if (!entries)
    return entries.takeError();
  return analyzeEntries(*entries, options, registry);
}

llvm::Expected<std::vector<ClangInvocation>>
listInvocations(const AnalyzerOptions &options) {
  auto entries = selectEntries(options);
  if (!entries)
    return entries.takeError();
  std::vector<ClangInvocation> invocations;
  for (const CompileEntry &entry : *entries)
    invocations.push_back(
        translateForClang(entry, locateToolchain(&entry), options.translate));
  return invocations;
}

} // namespace streamlint
