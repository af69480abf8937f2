#pragma once
// Runs a translated invocation through a real clang++ process, the way the
// parse-rate bench and the real-toolkit test check translations: the
// invocation's virtual files are written to a temporary directory first.

#include "analyzer/compiledb/CompileDatabase.h"

#include <string>
#include <vector>

namespace streamlint::bench {

/// What one clang run said.
struct ClangRun {
  int exitCode = -1;
  std::vector<std::string> errors; // "file:line:col: error: ..." lines
  std::string failure;             // why clang could not be run at all
};

/// Runs `clang` (e.g. "clang++-22") with `invocation.args[1..]`.
ClangRun runClang(const std::string &clang, const ClangInvocation &invocation);

} // namespace streamlint::bench
