#include "analyzer/config/CheckOptions.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace streamlint {
namespace {

int boolValue(llvm::StringRef text) {
  std::string value = text.trim().lower();
  if (value == "true" || value == "1" || value == "yes" || value == "on")
    return 1;
  if (value == "false" || value == "0" || value == "no" || value == "off")
    return 0;
  return -1;
}

bool isIdentifierChar(char c) {
  return llvm::isAlnum(c) || c == '_' || c == ':' || c == '~';
}

} // namespace

std::string optionValueProblem(const OptionSpec &spec, llvm::StringRef value) {
  switch (spec.type) {
  case OptionType::Bool:
    if (boolValue(value) < 0)
      return "'" + value.str() + "' is not a boolean (true or false)";
    return "";
  case OptionType::Choice:
    if (std::find(spec.choices.begin(), spec.choices.end(), value.trim().str()) ==
        spec.choices.end())
      return "'" + value.str() + "' is not one of " + llvm::join(spec.choices, ", ");
    return "";
  case OptionType::NameList: {
    llvm::SmallVector<llvm::StringRef, 8> names;
    value.split(names, ';', -1, /*KeepEmpty=*/false);
    for (llvm::StringRef name : names) {
      name = name.trim();
      if (!name.empty() && !llvm::all_of(name, isIdentifierChar))
        return "'" + name.str() + "' is not a function name (names are separated by ';')";
    }
    return "";
  }
  }
  return "";
}

std::string checkOptionProblem(const OptionCatalog &catalog, llvm::StringRef key,
                               llvm::StringRef value) {
  if (catalog.empty())
    return "";
  auto [checkId, name] = key.split('.');
  if (name.empty())
    return "option '" + key.str() + "': expected <check-id>.<Name>";
  if (std::find(catalog.checks.begin(), catalog.checks.end(), checkId) == catalog.checks.end())
    return "option '" + key.str() + "': no check named '" + checkId.str() +
           "' (see --list-checks)";
  auto spec = catalog.options.find(key.str());
  if (spec != catalog.options.end()) {
    std::string problem = optionValueProblem(spec->second, value);
    return problem.empty() ? "" : "option '" + key.str() + "': " + problem;
  }
  std::vector<std::string> known;
  for (const auto &[candidate, option] : catalog.options)
    if (llvm::StringRef(candidate).split('.').first == checkId)
      known.push_back(option.name);
  return "unknown option '" + key.str() + "' (" + checkId.str() +
         (known.empty() ? " has no options" : " has " + llvm::join(known, ", ")) + ")";
}

std::string CheckOptions::get(llvm::StringRef checkId, llvm::StringRef name,
                              llvm::StringRef fallback) const {
  auto it = values_.find((checkId + "." + name).str());
  return it == values_.end() ? fallback.str() : it->second;
}

bool CheckOptions::getBool(llvm::StringRef checkId, llvm::StringRef name,
                           bool fallback) const {
  int value = boolValue(get(checkId, name, ""));
  return value < 0 ? fallback : value == 1;
}

} // namespace streamlint
