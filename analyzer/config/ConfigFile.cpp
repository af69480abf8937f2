#include "analyzer/config/ConfigFile.h"
#include "analyzer/InputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

#include <algorithm>

namespace streamlint {
namespace {

namespace yaml = llvm::yaml;

// llvm's YAML parser recurses once per nesting level of flow collections and
// once per empty entry in a row (`[a,,,,]`): tens of thousands of either
// overflow the stack (the config_file fuzzer found a 17.9 KB file that made
// streamlint crash). Such text is refused before it is parsed.
constexpr unsigned kMaxFlowDepth = 128, kMaxEmptyEntries = 128;

/// The offset of the first place past those limits, with what is wrong; npos
/// if none. Quoted scalars and comments are skipped, recognized as YAML
/// does: a quote or `#` only where a token starts.
size_t beyondParserLimits(llvm::StringRef text, std::string &problem) {
  unsigned depth = 0, commas = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    // A quote opens a quoted scalar only where a token starts (as in YAML:
    // inside a plain scalar it is a character like any other).
    bool tokenStart = i == 0 || llvm::isSpace(text[i - 1]) ||
                      llvm::StringRef("[{,:").contains(text[i - 1]);
    if ((c == '"' || c == '\'') && tokenStart) {
      for (++i; i < text.size(); ++i) {
        if (c == '"' && text[i] == '\\') {
          ++i;
        } else if (text[i] == c) {
          if (c == '\'' && i + 1 < text.size() && text[i + 1] == '\'')
            ++i; // '' inside single quotes
          else
            break;
        }
      }
      commas = 0;
    } else if (c == '#' && (i == 0 || llvm::isSpace(text[i - 1]))) {
      while (i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
    } else if (c == '[' || c == '{') {
      commas = 0;
      if (++depth > kMaxFlowDepth) {
        problem = "[ and { nested more than " + std::to_string(kMaxFlowDepth) + " deep";
        return i;
      }
    } else if (c == ']' || c == '}') {
      commas = 0;
      depth -= depth > 0;
    } else if (c == ',') {
      if (++commas > kMaxEmptyEntries) {
        problem = "more than " + std::to_string(kMaxEmptyEntries) + " empty entries in a row";
        return i;
      }
    } else if (!llvm::isSpace(c)) {
      commas = 0;
    }
  }
  return llvm::StringRef::npos;
}

const char *const kKnownKeys = "Checks, CheckOptions, HeaderFilterRegex, ExcludePaths, "
                               "InheritParentConfig, WarningsAsErrors, MinSeverity";

/// Walks the YAML tree once; the first problem becomes the error.
class ConfigParser {
public:
  ConfigParser(llvm::StringRef path, const std::vector<std::string> &knownChecks,
               const OptionCatalog *options)
      : path_(path), knownChecks_(knownChecks), options_(options) {
    sources_.setDiagHandler(
        [](const llvm::SMDiagnostic &diagnostic, void *self) {
          auto &parser = *static_cast<ConfigParser *>(self);
          if (parser.syntaxError_.empty())
            parser.syntaxError_ = parser.where(diagnostic.getLoc()) +
                                  diagnostic.getMessage().str();
        },
        this);
  }

  llvm::Expected<ConfigFile> parse(llvm::StringRef text) {
    ConfigFile config;
    config.path = path_.str();
    std::string problem;
    size_t at = beyondParserLimits(text, problem);
    if (at != llvm::StringRef::npos) {
      llvm::StringRef before = text.take_front(at);
      size_t line = before.count('\n') + 1;
      size_t column = at - (before.rfind('\n') == llvm::StringRef::npos ? -1 : before.rfind('\n'));
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     path_.str() + ":" + std::to_string(line) + ":" +
                                         std::to_string(column) + ": " + problem +
                                         ": too deep for the YAML reader");
    }
    yaml::Stream stream(text, sources_);
    auto document = stream.begin();
    yaml::Node *root = document == stream.end() ? nullptr : document->getRoot();
    if (root && !llvm::isa<yaml::NullNode>(root)) {
      auto *mapping = llvm::dyn_cast<yaml::MappingNode>(root);
      if (!mapping)
        return fail(root, "", "expected a mapping of keys (" + std::string(kKnownKeys) + ")");
      llvm::StringSet<> seen;
      for (yaml::KeyValueNode &entry : *mapping) {
        if (!entry.getKey() || !entry.getValue())
          break;  // a syntax error, reported below
        std::string key;
        if (!readScalar(entry.getKey(), key))
          return fail(entry.getKey(), "", "keys must be plain strings");
        if (!seen.insert(key).second)
          return fail(entry.getKey(), key, "given twice");
        if (llvm::Error error = readKey(key, entry, config))
          return std::move(error);
      }
    }
    if (stream.failed() || !syntaxError_.empty())
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     syntaxError_.empty() ? path_.str() + ": invalid YAML"
                                                          : syntaxError_);
    return config;
  }

private:
  llvm::Error readKey(const std::string &key, yaml::KeyValueNode &entry, ConfigFile &config) {
    yaml::Node *value = entry.getValue();
    std::string text;
    if (key == "Checks") {
      if (!readScalar(value, text))
        return fail(value, key, "expected a string of comma-separated globs, e.g. '-*,device-sync'");
      if (llvm::StringRef(text).trim(" \t,").empty())
        return fail(value, key, "empty: it would enable no check (remove the key for "
                                "the parent's or the default selection; '-*' disables "
                                "every check here)");
      if (llvm::Error error = checkGlobs(value, text, key))
        return error;
      config.checks = text;
    } else if (key == "CheckOptions") {
      return readCheckOptions(value, config);
    } else if (key == "HeaderFilterRegex") {
      if (!readScalar(value, text))
        return fail(value, key, "expected a regular expression string");
      std::string problem; // '' is valid: only the main file (as clang-tidy)
      if (!text.empty() && !llvm::Regex(text).isValid(problem))
        return fail(value, key, "invalid regular expression '" + text + "': " + problem);
      config.headerFilterRegex = text;
    } else if (key == "ExcludePaths") {
      auto *list = llvm::dyn_cast<yaml::SequenceNode>(value);
      if (!list)
        return fail(value, key, "expected a list of globs, e.g. [third_party/*]");
      for (yaml::Node &item : *list) {
        if (!readScalar(&item, text) || text.empty())
          return fail(&item, key, "expected a non-empty glob string");
        if (auto glob = llvm::GlobPattern::create(text); !glob)
          return fail(&item, key, "invalid glob '" + text + "': " +
                                      llvm::toString(glob.takeError()));
        config.excludePaths.push_back(text);
      }
    } else if (key == "WarningsAsErrors") {
      if (!readScalar(value, text))
        return fail(value, key, "expected a string of comma-separated check globs");
      if (llvm::Error error = checkGlobs(value, text, key))
        return error;
      config.warningsAsErrors = text;
    } else if (key == "MinSeverity") {
      if (!readScalar(value, text) || (text != "note" && text != "warning" && text != "error"))
        return fail(value, key, "expected note, warning or error");
      config.minSeverity = text;
    } else if (key == "InheritParentConfig") {
      if (!readScalar(value, text) || (text != "true" && text != "false"))
        return fail(value, key, "expected true or false");
      config.inheritParentConfig = text == "true";
    } else {
      return fail(entry.getKey(), key, "unknown key (expected one of " +
                                           std::string(kKnownKeys) + ")");
    }
    return llvm::Error::success();
  }

  llvm::Error readCheckOptions(yaml::Node *value, ConfigFile &config) {
    const std::string key = "CheckOptions";
    auto *mapping = llvm::dyn_cast<yaml::MappingNode>(value);
    if (!mapping)
      return fail(value, key, "expected a mapping of '<check-id>.<Name>: value'");
    for (yaml::KeyValueNode &entry : *mapping) {
      if (!entry.getKey() || !entry.getValue())
        break;
      std::string name, text;
      if (!readScalar(entry.getKey(), name) || !llvm::StringRef(name).contains('.'))
        return fail(entry.getKey(), key, "option '" + name + "': expected <check-id>.<Name>");
      llvm::StringRef checkId = llvm::StringRef(name).split('.').first;
      if (!knownChecks_.empty() &&
          std::find(knownChecks_.begin(), knownChecks_.end(), checkId) == knownChecks_.end())
        return fail(entry.getKey(), key, "option '" + name + "': no check named '" +
                                             checkId.str() + "' (see --list-checks)");
      if (!readScalar(entry.getValue(), text))
        return fail(entry.getValue(), key, "option '" + name + "': expected a scalar value");
      if (options_)
        if (std::string problem = checkOptionProblem(*options_, name, text); !problem.empty())
          return fail(entry.getKey(), key, problem);
      if (!config.checkOptions.emplace(name, text).second)
        return fail(entry.getKey(), key, "option '" + name + "' given twice");
    }
    return llvm::Error::success();
  }

  /// A glob that selects nothing is almost always a typo: say so.
  llvm::Error checkGlobs(yaml::Node *node, llvm::StringRef globs, llvm::StringRef key) {
    llvm::SmallVector<llvm::StringRef, 8> parts;
    globs.split(parts, ',', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef part : parts) {
      part = part.trim();
      part.consume_front("-");
      part = part.trim();
      if (part.empty())
        continue;
      auto glob = llvm::GlobPattern::create(part);
      if (!glob)
        return fail(node, key, "invalid glob '" + part.str() + "': " +
                                        llvm::toString(glob.takeError()));
      if (!knownChecks_.empty() &&
          std::none_of(knownChecks_.begin(), knownChecks_.end(),
                       [&](const std::string &id) { return glob->match(id); }))
        return fail(node, key, "'" + part.str() + "' matches no check (see --list-checks)");
    }
    return llvm::Error::success();
  }

  static bool readScalar(yaml::Node *node, std::string &out) {
    if (auto *scalar = llvm::dyn_cast_or_null<yaml::ScalarNode>(node)) {
      llvm::SmallString<64> storage;
      out = scalar->getValue(storage).str();
      return true;
    }
    if (auto *block = llvm::dyn_cast_or_null<yaml::BlockScalarNode>(node)) {
      out = block->getValue().str();
      return true;
    }
    return false;
  }

  std::string where(llvm::SMLoc location) {
    if (!location.isValid())
      return path_.str() + ": ";
    auto [line, column] = sources_.getLineAndColumn(location);
    return path_.str() + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ";
  }

  llvm::Error fail(yaml::Node *node, llvm::StringRef key, const llvm::Twine &message) {
    std::string text = where(node ? node->getSourceRange().Start : llvm::SMLoc());
    if (!key.empty())
      text += key.str() + ": ";
    return llvm::createStringError(llvm::inconvertibleErrorCode(), text + message.str());
  }

  llvm::StringRef path_;
  const std::vector<std::string> &knownChecks_;
  const OptionCatalog *options_;
  llvm::SourceMgr sources_;
  std::string syntaxError_;
};

} // namespace

llvm::Expected<ConfigFile> parseConfigFile(llvm::StringRef path, llvm::StringRef text,
                                           const std::vector<std::string> &knownChecks,
                                           const OptionCatalog *options) {
  return ConfigParser(path, knownChecks, options).parse(text);
}

llvm::Expected<ConfigFile> loadConfigFile(llvm::StringRef path,
                                          const std::vector<std::string> &knownChecks,
                                          const OptionCatalog *options) {
  std::string text, error;
  if (!readInputFile(path.str(), kConfigLimits, text, error))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "%s: cannot read config file: %s", path.str().c_str(),
                                   error.c_str());
  return parseConfigFile(path, text, knownChecks, options);
}

} // namespace streamlint
