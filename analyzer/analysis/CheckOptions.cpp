#include "analyzer/analysis/CheckOptions.h"

#include "llvm/ADT/StringExtras.h"

namespace streamlint {

std::string CheckOptions::get(llvm::StringRef checkId, llvm::StringRef name,
                              llvm::StringRef fallback) const {
  auto it = values_.find((checkId + "." + name).str());
  return it == values_.end() ? fallback.str() : it->second;
}

bool CheckOptions::getBool(llvm::StringRef checkId, llvm::StringRef name,
                           bool fallback) const {
  std::string value = llvm::StringRef(get(checkId, name, "")).lower();
  if (value == "true" || value == "1" || value == "yes" || value == "on")
    return true;
  if (value == "false" || value == "0" || value == "no" || value == "off")
    return false;
  return fallback;
}

} // namespace streamlint
