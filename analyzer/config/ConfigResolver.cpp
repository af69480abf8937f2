#include "analyzer/config/ConfigResolver.h"
#include "analyzer/support/Glob.h"
#include "analyzer/support/Paths.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace streamlint {
namespace {

/// YAML single-quoted scalar: only the quote itself needs escaping.
std::string quoted(llvm::StringRef text) {
  std::string result = "'";
  for (char c : text)
    result += c == '\'' ? std::string("''") : std::string(1, c);
  return result + "'";
}

} // namespace

bool EffectiveConfig::excludes(llvm::StringRef file) const {
  for (const ExcludeGlob &exclude : excludePaths) {
    // Absolute globs (as --dump-config writes them) match the whole path;
    // relative ones match the path below the config file's directory.
    if (llvm::sys::path::is_absolute(exclude.pattern)) {
      if (globMatches(exclude.pattern, file))
        return true;
      continue;
    }
    llvm::StringRef relative = file;
    if (!relative.consume_front(exclude.baseDirectory) ||
        !llvm::sys::path::is_separator(relative.empty() ? 'x' : relative.front()))
      continue;
    if (globMatches(exclude.pattern, relative.drop_front()))
      return true;
  }
  return false;
}

bool EffectiveConfig::reportsIn(llvm::StringRef file, llvm::StringRef mainFile) const {
  if (excludes(file))
    return false;
  if (file == mainFile || headerFilterRegex.empty())
    return true;
  if (!headerFilter_)
    headerFilter_ = std::make_shared<llvm::Regex>(headerFilterRegex);
  return headerFilter_->match(file);
}

ConfigResolver::ConfigResolver(ConfigOverrides overrides, std::vector<std::string> knownChecks,
                               OptionCatalog catalog)
    : overrides_(std::move(overrides)), knownChecks_(std::move(knownChecks)),
      catalog_(std::move(catalog)) {}

llvm::Expected<const ConfigFile *> ConfigResolver::load(const std::string &path) {
  auto cached = files_.find(path);
  if (cached != files_.end())
    return cached->second.get();
  auto parsed = loadConfigFile(path, knownChecks_, catalog_.empty() ? nullptr : &catalog_);
  if (!parsed)
    return parsed.takeError();
  auto &slot = files_[path];
  slot = std::make_unique<ConfigFile>(std::move(*parsed));
  return slot.get();
}

llvm::Expected<std::string> ConfigResolver::nearestConfig(llvm::StringRef start) {
  std::vector<std::string> visited;
  std::string found;
  for (llvm::StringRef directory = start; !directory.empty();
       directory = llvm::sys::path::parent_path(directory)) {
    auto cached = nearestInDirectory_.find(directory.str());
    if (cached != nearestInDirectory_.end()) {
      found = cached->second;
      break;
    }
    visited.push_back(directory.str());
    std::vector<std::string> here;
    for (const char *name : kConfigFileNames) {
      llvm::SmallString<256> candidate(directory);
      llvm::sys::path::append(candidate, name);
      // Not only regular files: a config that is a FIFO or a device is an
      // error the reader names, not a config silently ignored.
      if (llvm::sys::fs::exists(candidate) && !llvm::sys::fs::is_directory(candidate))
        here.push_back(std::string(candidate));
    }
    if (here.size() > 1)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "%s: both %s and %s configure this directory; keep one",
                                     directory.str().c_str(), kConfigFileNames[0],
                                     kConfigFileNames[1]);
    if (!here.empty()) {
      found = here.front();
      break;
    }
  }
  for (const std::string &directory : visited)
    nearestInDirectory_[directory] = found;
  return found;
}

llvm::Expected<std::vector<const ConfigFile *>>
ConfigResolver::chainFrom(std::string configPath) {
  std::vector<const ConfigFile *> chain;  // nearest first
  while (!configPath.empty()) {
    auto file = load(configPath);
    if (!file)
      return file.takeError();
    chain.push_back(*file);
    if (!(*file)->inheritParentConfig)
      break;
    llvm::StringRef parent =
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(configPath));
    auto next = nearestConfig(parent);
    if (!next)
      return next.takeError();
    configPath = *next;
  }
  return chain;
}

llvm::Expected<EffectiveConfig> ConfigResolver::configFor(llvm::StringRef file) {
  std::string path = absolutePath(file);
  return configForDirectory(llvm::sys::path::parent_path(path));
}

llvm::Expected<EffectiveConfig> ConfigResolver::configForDirectory(llvm::StringRef directory) {
  for (const auto &[key, value] : overrides_.checkOptions) {
    std::string problem = checkOptionProblem(catalog_, key, value);
    if (!problem.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "--check-option '%s=%s': %s", key.c_str(),
                                     value.c_str(), problem.c_str());
  }
  std::string start = overrides_.configFile.empty() ? "" : absolutePath(overrides_.configFile);
  if (start.empty()) {
    auto nearest = nearestConfig(absolutePath(directory));
    if (!nearest)
      return nearest.takeError();
    start = *nearest;
  }
  std::vector<const ConfigFile *> chain;
  if (!start.empty()) {
    auto found = chainFrom(start);
    if (!found)
      return found.takeError();
    chain = std::move(*found);
  }

  // Farthest first, so that nearer files and then the command line win.
  EffectiveConfig config;
  std::optional<std::string> checks, warningsAsErrors;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const ConfigFile &source = **it;
    config.sources.push_back(source.path);
    if (source.checks)
      checks = checks ? *checks + "," + *source.checks : *source.checks;
    for (const auto &[key, value] : source.checkOptions)
      config.checkOptions.set(key, value);
    if (source.headerFilterRegex)
      config.headerFilterRegex = *source.headerFilterRegex;
    if (source.warningsAsErrors)
      warningsAsErrors = warningsAsErrors ? *warningsAsErrors + "," + *source.warningsAsErrors
                                          : *source.warningsAsErrors;
    if (source.minSeverity)
      config.minSeverity = *source.minSeverity;
    std::string base(llvm::sys::path::parent_path(source.path));
    for (const std::string &pattern : source.excludePaths)
      config.excludePaths.push_back({base, pattern});
  }
  if (overrides_.checks)
    checks = checks ? *checks + "," + *overrides_.checks : *overrides_.checks;
  if (checks)
    config.checks = *checks;
  if (overrides_.strict)
    for (const auto &[key, option] : catalog_.options)
      if (!option.strictValue.empty())
        config.checkOptions.set(key, option.strictValue);
  for (const auto &[key, value] : overrides_.checkOptions)
    config.checkOptions.set(key, value);
  if (overrides_.headerFilterRegex)
    config.headerFilterRegex = *overrides_.headerFilterRegex;
  if (overrides_.warningsAsErrors)
    warningsAsErrors = warningsAsErrors ? *warningsAsErrors + "," + *overrides_.warningsAsErrors
                                        : *overrides_.warningsAsErrors;
  config.warningsAsErrors = warningsAsErrors.value_or("");
  if (overrides_.minSeverity)
    config.minSeverity = *overrides_.minSeverity;
  return config;
}

void dumpConfig(const EffectiveConfig &config, llvm::StringRef forFile,
                llvm::raw_ostream &out, const OptionCatalog &catalog) {
  out << "---\n# Effective streamlint configuration for " << forFile << "\n";
  if (config.sources.empty())
    out << "# (no config file: defaults and the command line)\n";
  for (const std::string &source : config.sources)
    out << "# from " << source << "\n";
  out << "Checks: " << quoted(config.checks) << "\n";
  out << "HeaderFilterRegex: " << quoted(config.headerFilterRegex) << "\n";
  out << "WarningsAsErrors: " << quoted(config.warningsAsErrors) << "\n";
  out << "MinSeverity: " << config.minSeverity << "\n";
  // Globs are written relative to the directory the dump is for (where it
  // is meant to be saved as .streamlint.yaml), absolute when they lie
  // outside it, so a committed dump works in every checkout.
  std::string here = absolutePath(forFile);
  if (!llvm::sys::fs::is_directory(here))
    here = std::string(llvm::sys::path::parent_path(here));
  out << "ExcludePaths:" << (config.excludePaths.empty() ? " []" : "");
  if (!config.excludePaths.empty())
    out << "  # relative to " << here;
  out << "\n";
  for (const ExcludeGlob &exclude : config.excludePaths) {
    llvm::SmallString<256> pattern(exclude.baseDirectory);
    if (llvm::sys::path::is_absolute(exclude.pattern))
      pattern = exclude.pattern;
    else
      llvm::sys::path::append(pattern, exclude.pattern);
    llvm::StringRef shown = pattern;
    if (shown.consume_front(here) && shown.consume_front("/") && !shown.empty())
      out << "  - " << quoted(shown) << "\n";
    else
      out << "  - " << quoted(pattern) << "\n";
  }
  // Every declared option, set or not, so the dump shows what there is to
  // set and loads back to the same settings.
  std::map<std::string, std::string> options;
  for (const auto &[key, option] : catalog.options)
    options[key] = option.defaultValue;
  for (const auto &[key, value] : config.checkOptions.all())
    options[key] = value;
  out << "CheckOptions:" << (options.empty() ? " {}" : "") << "\n";
  for (const auto &[key, value] : options) {
    out << "  " << key << ": " << quoted(value);
    auto declared = catalog.options.find(key);
    if (declared != catalog.options.end())
      out << "  # " << declared->second.description << " (default "
          << quoted(declared->second.defaultValue) << ")";
    out << "\n";
  }
  out << "...\n";
}

} // namespace streamlint
