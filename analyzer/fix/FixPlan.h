#pragma once
// Internal: which fixes can be applied together, file by file.

#include "analyzer/fix/FixApplier.h"

#include <map>
#include <string>
#include <vector>

namespace streamlint::fix {

/// An edit accepted into the plan, with the findings that asked for it.
struct PlannedEdit {
  TextEdit edit;
  std::vector<size_t> findings; // indexes into the findings vector
};

/// A fix accepted into the plan.
struct PlannedFix {
  size_t finding;
  size_t fix;
  std::vector<std::string> files; // the real paths it edits
  bool suggestion = false;        // not applicable: taken for --fix-notes
};

struct FixPlan {
  /// Per real file (absolute, symbolic links resolved): the path the
  /// findings name, original contents and edits by offset.
  struct FileChange {
    std::string namedPath;
    std::string original;
    std::vector<PlannedEdit> edits;
  };
  std::map<std::string, FileChange> files;
  std::vector<PlannedFix> fixes;
  std::vector<SkippedFix> skipped;
};

/// Selects the applicable fixes that are inside the project, match the files
/// on disk and do not overlap an earlier fix. With `applySuggestions`
/// (--fix-notes), a finding without an applicable fix contributes its first
/// suggested fix that has edits.
FixPlan planFixes(const std::vector<Finding> &findings,
                  const std::string &projectRoot, bool applySuggestions = false);

/// The header --fix-notes puts before the dry-run diff: '#' lines (which
/// `git apply` and `patch` skip) naming each applied suggestion; "" if none.
std::string suggestionsHeader(const std::vector<std::string> &appliedSuggestions);

/// `original` with `edits` (sorted by offset, non-overlapping) applied.
std::string applyEdits(const std::string &original,
                       const std::vector<PlannedEdit> &edits);

/// A unified diff of one file (`---a/path`, `+++ b/path`, 3 lines of context).
std::string unifiedDiff(const std::string &displayPath,
                        const std::string &original,
                        const std::vector<PlannedEdit> &edits);

/// Replaces `path` by `contents`: a temporary file in the same directory,
/// fsync, the original's mode, rename. On failure the original is untouched.
llvm::Error writeFileAtomically(const std::string &path,
                                const std::string &contents);

/// What replaceIfUnchanged() did.
enum class ReplaceOutcome { Replaced, Changed, ReadOnly, HardLinked };

/// Under an exclusive flock(2) of `realPath`'s directory (so two streamlint
/// runs never interleave), re-reads the file and replaces it atomically only
/// if it still holds exactly `expected` and is writable by its mode bits.
llvm::Expected<ReplaceOutcome> replaceIfUnchanged(const std::string &realPath,
                                                  const std::string &expected,
                                                  const std::string &contents);

/// Why `realPath` must not be written ("read-only (mode 0444)"), or "".
/// Looks at the permission bits, not at whether a write would succeed (root
/// may write anything).
std::string readOnlyReason(const std::string &realPath);

/// Why replacing `realPath` would split its hard links ("has 2 hard links:
/// ..."), or "". A replaced file is a new inode: the other names would keep
/// the old text, silently.
std::string hardLinkReason(const std::string &realPath);

/// `file` relative to `root` when inside it, else `file`.
std::string relativeTo(const std::string &file, const std::string &root);

/// The project root as an absolute, normalized path ("" = cwd).
std::string normalizedRoot(const std::string &projectRoot);

} // namespace streamlint::fix
