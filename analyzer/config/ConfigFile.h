#pragma once
// One .streamlint.yaml / .streamlint.json file, parsed and validated.

#include "analyzer/config/CheckOptions.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace streamlint {

/// The keys of one config file as written; unset keys stay unset so that
/// inheriting files and the command line can tell "not said" from "default".
struct ConfigFile {
  std::string path;                              // absolute
  std::optional<std::string> checks;             // Checks
  std::map<std::string, std::string> checkOptions; // CheckOptions
  std::optional<std::string> headerFilterRegex;  // HeaderFilterRegex
  std::vector<std::string> excludePaths;         // ExcludePaths (globs)
  std::optional<std::string> warningsAsErrors;   // WarningsAsErrors (check globs)
  std::optional<std::string> minSeverity;        // MinSeverity: note, warning, error
  bool inheritParentConfig = false;              // InheritParentConfig
};

/// The names config files are found under, in the order looked for.
inline constexpr const char *kConfigFileNames[] = {".streamlint.yaml",
                                                   ".streamlint.json"};

/// Parses `text` (YAML, or JSON as a YAML subset) read from `path`. Every
/// error names `path:line:col` and the key: unknown keys, wrong types, a bad
/// regex or glob, a Checks glob or CheckOptions id matching none of
/// `knownChecks` (skipped when it is empty), and with `options` an unknown
/// option name or a value of the wrong type.
llvm::Expected<ConfigFile> parseConfigFile(llvm::StringRef path, llvm::StringRef text,
                                           const std::vector<std::string> &knownChecks,
                                           const OptionCatalog *options = nullptr);

/// Reads and parses the file at `path`.
llvm::Expected<ConfigFile> loadConfigFile(llvm::StringRef path,
                                          const std::vector<std::string> &knownChecks,
                                          const OptionCatalog *options = nullptr);

} // namespace streamlint
