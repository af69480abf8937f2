#pragma once
// Per-check options ("<check-id>.<Name>" = value) from the command line or a
// config file, and the declarations that give each option its type, default
// and meaning. Checks declare their options (a static `options()`), read
// them once at construction, and the config layer rejects unknown names and
// bad values with the file, line and key before any TU is parsed.

#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>
#include <vector>

namespace streamlint {

/// What values an option takes.
enum class OptionType {
  Bool,     ///< true/false (also 1/0, yes/no, on/off)
  NameList, ///< function names separated by ';'
  Choice,   ///< one of `choices`
};

/// One declared option of one check.
struct OptionSpec {
  std::string name;          ///< "Strict"
  OptionType type = OptionType::Bool;
  std::string defaultValue;  ///< as written in a config file
  std::vector<std::string> choices; ///< Choice only
  /// The value --strict sets (empty: --strict leaves it alone).
  std::string strictValue;
  std::string description;   ///< one line, for --dump-config comments
};

/// Every check id and every declared option, keyed "<check-id>.<Name>".
struct OptionCatalog {
  std::vector<std::string> checks;
  std::map<std::string, OptionSpec> options;
  bool empty() const { return checks.empty(); }
};

/// "" when `value` is valid for `spec`, else what is wrong with it.
std::string optionValueProblem(const OptionSpec &spec, llvm::StringRef value);

/// "" when `key` = `value` is a declared option with a valid value, else the
/// problem: no such check, no such option (listing the check's options), or
/// a bad value. An empty catalog judges nothing.
std::string checkOptionProblem(const OptionCatalog &catalog, llvm::StringRef key,
                               llvm::StringRef value);

/// Options of all checks, keyed "<check-id>.<Name>".
class CheckOptions {
public:
  void set(const std::string &key, const std::string &value) {
    values_[key] = value;
  }
  std::string get(llvm::StringRef checkId, llvm::StringRef name,
                  llvm::StringRef fallback) const;
  /// true/false/1/0/yes/no; anything else yields `fallback`.
  bool getBool(llvm::StringRef checkId, llvm::StringRef name,
               bool fallback) const;
  const std::map<std::string, std::string> &all() const { return values_; }

private:
  std::map<std::string, std::string> values_;
};

} // namespace streamlint
