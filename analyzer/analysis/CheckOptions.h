#pragma once
// Per-check options ("<check-id>.<Name>" = value) from the command line or a
// config file, read by checks once at construction.

#include "llvm/ADT/StringRef.h"

#include <map>
#include <string>

namespace streamlint {

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
