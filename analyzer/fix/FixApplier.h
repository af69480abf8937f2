#pragma once
// Applying, previewing and exporting the fixes of findings: --fix,
// --fix-dry-run and --export-fixes. Works on bytes and paths only (no clang).

#include "analyzer/Finding.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace streamlint {

struct FixOptions {
  std::string projectRoot; // files outside it are never touched ("" = cwd)
  bool dryRun = false;     // compute the diff, change nothing
  /// --fix-notes: a finding with no applicable fix also gets its first
  /// suggested fix (the check lists its preferred one first), as clang-tidy's
  /// --fix-notes applies a note's fix. Off by default.
  bool applySuggestions = false;
};

/// Why an applicable fix was not applied; the summary counts each kind.
enum class SkipReason {
  Conflict,      // overlaps an earlier fix
  OutsideRoot,   // edits a file outside the fix root
  SystemHeader,  // edits a system or CUDA toolkit header
  Changed,       // the file's bytes differ from the ones analyzed
  ReadOnly,      // the file (or a link's target) has no write permission bit
  HardLinked,    // the file has other names: replacing it would split them
  Unreadable,    // the file cannot be read
  WriteFailed,   // writing the file failed; it was left intact
};
/// "conflicting", "outside the fix root", "changed since analysis", ...
const char *skipReasonName(SkipReason reason);

/// A fix that was not applied, and why.
struct SkippedFix {
  std::string checkId;
  SourcePoint location;    // the finding's location
  std::string description; // the fix's description
  std::string reason;      // a sentence naming the file and bytes involved
  SkipReason kind = SkipReason::Conflict;
};

/// What applyFixes() did.
struct FixReport {
  unsigned appliedFixes = 0;              // fixes whose edits were all written
  /// Of appliedFixes, the suggestions applied because of --fix-notes, each
  /// as "path:line:col: [check] description" (paths relative to the root).
  std::vector<std::string> appliedSuggestions;
  std::vector<std::string> changedFiles;  // sorted; for dry runs: would change
  std::vector<SkippedFix> skipped;
  std::vector<std::string> errors;        // "<file>: <why>"; the file is intact
  std::string diff;                       // unified diff (dry runs only)
  bool dryRun = false;
};

/// Applies the `applicable` fixes of `findings`. Identical edits from several
/// findings (a header seen by two TUs) are applied once; a fix overlapping an
/// earlier one is skipped whole. Each file is replaced atomically, under a
/// lock on its directory, and only while its bytes are still the ones the
/// analysis read (TextEdit::fileDigest); a symbolic link's target is
/// replaced and the link kept; read-only files are left alone.
FixReport applyFixes(const std::vector<Finding> &findings,
                     const FixOptions &options);

/// Writes the fixes applyFixes() would apply as clang-apply-replacements YAML.
llvm::Error exportFixes(const std::vector<Finding> &findings,
                        const FixOptions &options, const std::string &yamlPath);

/// "streamlint: applied N fix(es) in M file(s); K skipped (why)", preceded
/// by one line per skipped fix and per error. With --fix-notes the count
/// says how many of them were suggestions.
void printFixReport(const FixReport &report, llvm::raw_ostream &out);

} // namespace streamlint
