// Which translation units a run analyzes and with which configuration: the
// compile database found or named, the entries for the named files (headers
// and sources the database lacks included), each unit's checks from the
// configuration files.
#include "analyzer/driver/Analyzer.h"

#include "analyzer/driver/NamedFiles.h"
#include "analyzer/driver/ThirdPartyHeaders.h"
#include "analyzer/driver/UnitAnalysis.h"
#include "analyzer/support/Paths.h"
#include "checks/CheckRegistry.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <set>

namespace streamlint {
namespace {

llvm::Error inputError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

} // namespace

std::string findCompileDatabase(const std::string &start) {
  llvm::SmallString<256> directory(realPathOf(start));
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
  if (options.useIndex) {
    plan.cacheDirectory = options.cacheDirectory;
    if (plan.cacheDirectory.empty()) {
      llvm::SmallString<256> path(llvm::sys::path::parent_path(plan.databasePath));
      llvm::sys::path::append(path, ".streamlint");
      plan.cacheDirectory = absolutePath(path);
    }
  }
  for (const CompileEntry &entry : *entries)
    plan.databaseFiles.push_back(entry.file);
  if (!options.reportThirdPartyHeaders)
    plan.projectDirectories = projectDirectories(
        *entries, options.fixRoot, std::string(llvm::sys::path::parent_path(plan.databasePath)));
  if (options.files.empty()) {
    for (CompileEntry &entry : *entries)
      plan.units.push_back({std::move(entry), {}});
    return plan;
  }

  // Each entry's path is resolved once (real_path is a syscall per component).
  plan.namedFiles = true;
  std::vector<std::string> entryPaths;
  for (const CompileEntry &entry : *entries)
    entryPaths.push_back(realPathOf(entry.file));
  std::set<size_t> named;
  std::vector<PlannedUnit> interpolated;
  std::set<std::string> namedHeaders;
  for (const std::string &file : options.files) {
    std::string wanted = realPathOf(file);
    bool found = false;
    for (size_t i = 0; i < entries->size(); ++i)
      if (entryPaths[i] == wanted) {
        found = true;
        named.insert(i);
      }
    if (found)
      continue;
    bool exists = llvm::sys::fs::exists(wanted) && !llvm::sys::fs::is_directory(wanted);
    if (!exists && options.skipFilesNotInDatabase) {
      plan.skippedFiles.push_back(file);
      continue;
    }
    if (!exists)
      return inputError(file + ": no entry for this file in the compile "
                               "database " + buildPath + ", and no such file");
    if (isHeaderFile(wanted)) {
      if (namedHeaders.insert(wanted).second)
        plan.namedHeaders.push_back({absolutePath(file), wanted, {}});
    } else if (options.skipFilesNotInDatabase) {
      plan.skippedFiles.push_back(file);
    } else if (!entries->empty()) {
      // A source the build does not compile (yet): a neighbour's command.
      PlannedUnit unit{(*entries)[nearestEntry(*entries, absolutePath(file))], {}};
      unit.substituteFile = absolutePath(file);
      plan.notes.push_back(unit.substituteFile + ": no entry in the compile "
                           "database; analyzed with the command of " +
                           unit.entry.file + " (interpolated)");
      interpolated.push_back(std::move(unit));
    } else {
      plan.skippedFiles.push_back(file);
    }
  }
  for (size_t i = 0; i < entries->size(); ++i) {
    if (named.count(i))
      plan.units.push_back({(*entries)[i], {}});
    else if (options.wholeProgramContext || !plan.namedHeaders.empty())
      plan.units.push_back({(*entries)[i], {}, /*reported=*/false});
  }
  for (PlannedUnit &unit : interpolated)
    plan.units.push_back(std::move(unit));
  return plan;
}

std::vector<std::string> walkedDirectoriesIn(const AnalysisPlan &plan,
                                             const EffectiveConfig &config) {
  std::vector<std::string> namedHeaders;
  for (const NamedHeader &header : plan.namedHeaders)
    namedHeaders.push_back(header.path);
  return walkedDirectoriesOf(config, plan.projectDirectories, namedHeaders);
}

namespace {

void setWalkedDirectories(AnalysisPlan &plan) {
  for (PlannedUnit &unit : plan.units)
    unit.walkedDirectories = walkedDirectoriesIn(plan, unit.config);
}

/// The plan with each unit's config.
llvm::Expected<AnalysisPlan> configuredPlan(const AnalyzerOptions &options,
                                            const CheckRegistry &registry) {
  auto plan = selectEntries(options);
  if (!plan)
    return plan.takeError();
  if (!options.config) {
    for (PlannedUnit &unit : plan->units) {
      unit.config.checks = options.checks;
      unit.config.checkOptions = options.checkOptions;
    }
    for (NamedHeader &header : plan->namedHeaders) {
      header.config.checks = options.checks;
      header.config.checkOptions = options.checkOptions;
    }
    return plan;
  }
  OptionCatalog catalog = registry.optionCatalog();
  ConfigResolver resolver(*options.config, catalog.checks, catalog);
  std::vector<PlannedUnit> kept;
  for (PlannedUnit &unit : plan->units) {
    std::string mainFile = absolutePath(unit.substituteFile.empty() ? unit.entry.file
                                                                 : unit.substituteFile);
    auto config = resolver.configFor(mainFile);
    if (!config)
      return config.takeError();
    unit.config = std::move(*config);
    if (!unit.config.excludes(mainFile))
      kept.push_back(std::move(unit));
    else if (unit.reported)
      plan->excludedFiles.push_back(unit.substituteFile.empty() ? unit.entry.file
                                                                : unit.substituteFile);
  }
  plan->units = std::move(kept);
  std::vector<NamedHeader> headers;
  for (NamedHeader &header : plan->namedHeaders) {
    auto config = resolver.configFor(header.path);
    if (!config)
      return config.takeError();
    header.config = std::move(*config);
    if (header.config.excludes(header.path))
      plan->excludedFiles.push_back(header.path);
    else
      headers.push_back(std::move(header));
  }
  plan->namedHeaders = std::move(headers);
  return plan;
}

} // namespace

llvm::Expected<AnalysisPlan> planAnalysis(const AnalyzerOptions &options,
                                          const CheckRegistry &registry) {
  auto plan = configuredPlan(options, registry);
  if (plan)
    setWalkedDirectories(*plan);
  return plan;
}


llvm::Expected<std::vector<ClangInvocation>>
listInvocations(const AnalyzerOptions &options) {
  auto plan = selectEntries(options);
  if (!plan)
    return plan.takeError();
  std::vector<ClangInvocation> invocations;
  for (const PlannedUnit &unit : plan->units)
    if (unit.reported)
      invocations.push_back(invocationFor(unit, locateToolchain(&unit.entry),
                                          options.translate));
  return invocations;
}

} // namespace streamlint
