#pragma once
// Finding the config files that apply to an analyzed file (like .clang-tidy)
// and combining them with the command line.

#include "analyzer/config/CheckOptions.h"
#include "analyzer/config/ConfigFile.h"

#include "llvm/Support/Regex.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace streamlint {

/// What the command line says about configuration; it wins over files.
struct ConfigOverrides {
  std::string configFile;                  // --config-file: used for every file
  std::optional<std::string> checks;       // --checks: appended to Checks
  std::map<std::string, std::string> checkOptions; // --check-option: override
  std::optional<std::string> headerFilterRegex;    // --header-filter: replaces
  std::optional<std::string> warningsAsErrors;     // --warnings-as-errors: appended
  std::optional<std::string> minSeverity;          // --min-severity: replaces
  bool strict = false; // --strict: every option's strictValue, unless --check-option
};

/// An ExcludePaths glob and the directory of the file that gave it.
struct ExcludeGlob {
  std::string baseDirectory;
  std::string pattern;
};

/// The settings one translation unit is analyzed with.
struct EffectiveConfig {
  std::string checks = "*";
  CheckOptions checkOptions;
  std::string headerFilterRegex;           // "" = findings in all headers kept
  std::vector<ExcludeGlob> excludePaths;
  std::vector<std::string> sources;        // config files applied, farthest first
  /// WarningsAsErrors: warnings of these checks are reported as errors.
  std::string warningsAsErrors;
  /// MinSeverity: findings below it are neither reported nor fail the run.
  std::string minSeverity = "note";

  /// Whether `file` (absolute) matches an ExcludePaths glob.
  bool excludes(llvm::StringRef file) const;
  /// Whether a finding in `file` of the TU of `mainFile` is reported:
  /// not excluded, and the main file or a header HeaderFilterRegex matches.
  bool reportsIn(llvm::StringRef file, llvm::StringRef mainFile) const;

private:
  mutable std::shared_ptr<llvm::Regex> headerFilter_;  // compiled on first use
};

/// Finds, parses and caches config files; one instance per run. Not thread
/// safe: the driver resolves every TU's config before analyzing in parallel.
class ConfigResolver {
public:
  /// `knownChecks`: every registered check id, to reject typos in files;
  /// `catalog`: their declared options, to reject unknown names and bad
  /// values in files and on the command line (none judged when empty).
  ConfigResolver(ConfigOverrides overrides, std::vector<std::string> knownChecks,
                 OptionCatalog catalog = {});

  /// The config for the analyzed file `file` (absolute): the nearest
  /// .streamlint.yaml/.json in its directory or a parent, merged onto its
  /// parents' while it says InheritParentConfig: true, then the command line.
  llvm::Expected<EffectiveConfig> configFor(llvm::StringRef file);
  /// The same for a file in `directory` (--dump-config without a file).
  llvm::Expected<EffectiveConfig> configForDirectory(llvm::StringRef directory);

private:
  llvm::Expected<std::vector<const ConfigFile *>> chainFrom(std::string configPath);
  llvm::Expected<std::string> nearestConfig(llvm::StringRef directory);
  llvm::Expected<const ConfigFile *> load(const std::string &path);

  ConfigOverrides overrides_;
  std::vector<std::string> knownChecks_;
  OptionCatalog catalog_;
  std::map<std::string, std::unique_ptr<ConfigFile>> files_;    // path -> parsed
  std::map<std::string, std::string> nearestInDirectory_;       // dir -> path or ""
};

/// Prints `config` as a config file that loads back to the same settings
/// (--dump-config): every option of `catalog` with its effective value (its
/// default when unset); `forFile`, the sources and defaults go in comments.
void dumpConfig(const EffectiveConfig &config, llvm::StringRef forFile,
                llvm::raw_ostream &out, const OptionCatalog &catalog = {});

} // namespace streamlint
