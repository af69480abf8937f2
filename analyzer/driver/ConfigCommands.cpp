#include "analyzer/driver/ConfigCommands.h"

#include "llvm/Support/FileSystem.h"
#include <nlohmann/json.hpp>
#include "llvm/Support/Path.h"

namespace streamlint {

namespace {

/// The effective config for the first named file, else the current directory.
llvm::Expected<EffectiveConfig> configHere(const AnalyzerOptions &options,
                                           const CheckRegistry &registry,
                                           std::string &where) {
  OptionCatalog catalog = registry.optionCatalog();
  ConfigResolver resolver(options.config.value_or(ConfigOverrides{}), catalog.checks, catalog);
  llvm::SmallString<256> cwd;
  llvm::sys::fs::current_path(cwd);
  where = options.files.empty() ? std::string(cwd) : options.files.front();
  return options.files.empty() ? resolver.configForDirectory(cwd)
                               : resolver.configFor(options.files.front());
}

} // namespace

llvm::Error dumpEffectiveConfig(const AnalyzerOptions &options,
                                const CheckRegistry &registry, llvm::raw_ostream &out) {
  std::string where;
  auto config = configHere(options, registry, where);
  if (!config)
    return config.takeError();
  dumpConfig(*config, where, out, registry.optionCatalog());
  return llvm::Error::success();
}

llvm::Error listEnabledChecks(const AnalyzerOptions &options, const CheckRegistry &registry,
                              bool json, bool allowNoChecks, llvm::raw_ostream &out) {
  std::string where;
  auto config = configHere(options, registry, where);
  if (!config)
    return config.takeError();
  CheckSelection selection(config->checks);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const CheckDescriptor &check : registry.checks()) {
    if (!selection.enabled(check.rule.id))
      continue;
    if (!json)
      out << check.rule.id << ": " << check.rule.shortDescription << "\n";
    list.push_back({{"id", check.rule.id},
                    {"description", check.rule.shortDescription},
                    {"severity", severityName(check.rule.defaultSeverity)},
                    {"help_uri", check.rule.helpUri}});
  }
  if (list.empty() && !allowNoChecks)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "no checks enabled: Checks '" + config->checks +
                                       "' selects none of the " +
                                       std::to_string(registry.checks().size()) +
                                       " checks (--allow-no-checks lists none)");
  if (json)
    out << list.dump(2) << "\n";
  return llvm::Error::success();
}

std::string skippedFilesNote(const AnalysisPlan &plan) {
  if (plan.skippedFiles.empty())
    return "";
  llvm::SmallString<256> cwd;
  llvm::sys::fs::current_path(cwd);
  llvm::StringRef database = plan.databasePath;
  if (database.consume_front(cwd) && !database.empty() &&
      llvm::sys::path::is_separator(database.front()))
    database = database.drop_front();
  else
    database = plan.databasePath;
  size_t count = plan.skippedFiles.size();
  std::string note = "streamlint: skipped " + std::to_string(count) +
                     (count == 1 ? " file" : " files") + " not in " + database.str() + ":";
  for (const std::string &file : plan.skippedFiles)
    note += " " + file;
  return note;
}

} // namespace streamlint
