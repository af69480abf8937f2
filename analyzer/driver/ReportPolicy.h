#pragma once
// What a pull request sees: warnings of chosen checks promoted to errors
// (WarningsAsErrors, --warnings-as-errors, clang-tidy's spelling), findings
// below a severity dropped (MinSeverity, --min-severity: neither reported nor
// failing the run), and, in a changed-lines run, only findings on lines the
// change touched. Applied after NOLINT and the baseline (fingerprints are
// taken over the full list first), before any output; counts what it hides.

#include "analyzer/Finding.h"
#include "analyzer/config/ConfigResolver.h"
#include "analyzer/driver/Analyzer.h"
#include "analyzer/driver/ChangedLines.h"
#include "checks/CheckRegistry.h"

#include "llvm/Support/Error.h"

#include <functional>
#include <optional>

namespace streamlint {

/// The severity `name` names ("note", "warning", "error"), if any.
std::optional<Severity> parseSeverity(llvm::StringRef name);

/// Each finding is judged by the WarningsAsErrors and MinSeverity of the
/// config nearest its file under `overrides` (the command line wins); with
/// no overrides (in-process users), by the defaults. `changed`, when set,
/// keeps only findings on its lines. What each hides is added to `counts`.
/// Errors: a config file that cannot be read or parsed.
llvm::Error applyReportPolicy(AnalysisResult &result,
                              const std::optional<ConfigOverrides> &overrides,
                              const CheckRegistry &registry, const ChangedLines *changed,
                              SummaryCounts &counts);

/// Whether a check is enabled where a file lies: the Checks of the config
/// nearest the file under `overrides` (--checks appended); every check with
/// no overrides, or where a config cannot be read (applyReportPolicy says
/// why). For the trace merge's run-time-only findings.
std::function<bool(const std::string &check, const std::string &file)>
checkSelectionAt(const std::optional<ConfigOverrides> &overrides, const CheckRegistry &registry);

} // namespace streamlint
