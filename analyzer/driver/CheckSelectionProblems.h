#pragma once
// No silent green run: a check selection that enables nothing, or names a
// check that does not exist, is an error (exit 2), as clang-tidy's "Error: no
// checks enabled". An unset $CHECKS in CI (`--checks=`), `-*` alone and a typo
// (`-*,device-snyc`) would otherwise analyze nothing and exit 0.

#include "analyzer/driver/Analyzer.h"
#include "checks/CheckRegistry.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace streamlint {

/// What is wrong with the --checks value `globs`: a glob that matches no
/// registered check, or (unless `allowNoChecks`, clang-tidy's
/// --allow-no-checks) an empty value; "" when it is usable.
std::string commandLineChecksProblem(llvm::StringRef globs, const CheckRegistry &registry,
                                     bool allowNoChecks);

/// A glob of the check list `globs` given to `option` (--warnings-as-errors)
/// that matches no registered check, as an error; "" when there is none.
std::string unknownCheckGlobProblem(llvm::StringRef option, llvm::StringRef globs,
                                    const CheckRegistry &registry);

/// Whether `globs` enables at least one registered check.
bool enablesSomeCheck(llvm::StringRef globs, const CheckRegistry &registry);

/// "" when some reported translation unit (or named header) of `plan` runs
/// at least one check; else the error, naming the effective Checks value
/// and the config files it came from. Units only read for whole-program
/// context do not count, and a plan with nothing to report passes (a
/// subdirectory's `Checks: '-*'` silences that directory, not the run).
std::string planChecksProblem(const AnalysisPlan &plan, const CheckRegistry &registry);

} // namespace streamlint
