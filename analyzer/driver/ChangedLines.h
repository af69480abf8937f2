#pragma once
// The lines a change touched, from a unified diff (`git diff`, `diff -u`,
// a pull request's patch) or from `git diff REV`: a changed-lines run reports
// only findings on them, as clang-tidy-diff and cpp-linter's
// lines-changed-only do.

#include "analyzer/Finding.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>
#include <vector>

namespace streamlint {

class ChangedLines {
public:
  /// The added or modified lines of each file `diff` changes. Paths are read
  /// from `+++` lines, relative to `root` (a `b/` prefix of a git diff is
  /// dropped when its `---` line has `a/` or /dev/null); deleted files add
  /// nothing. `origin` names the diff in errors.
  static llvm::Expected<ChangedLines> fromUnifiedDiff(llvm::StringRef diff,
                                                      llvm::StringRef root,
                                                      llvm::StringRef origin);
  /// `git diff REV` run in `directory`: the working tree (committed or
  /// not) against REV; paths relative to the checkout's top.
  static llvm::Expected<ChangedLines> sinceRevision(llvm::StringRef revision,
                                                    llvm::StringRef directory);
  /// A diff file (`-` = stdin); paths relative to the checkout holding the
  /// current directory, else to the current directory.
  static llvm::Expected<ChangedLines> fromDiffFile(llvm::StringRef path);

  /// Whether a line the finding spans (location to end) was changed.
  bool touches(const Finding &finding) const;
  size_t fileCount() const { return lines_.size(); }

private:
  /// Real path of each changed file -> its changed lines, sorted.
  std::map<std::string, std::vector<unsigned>> lines_;
};

/// The top of the git checkout holding `directory`, "" if none.
std::string gitTopLevel(llvm::StringRef directory);

} // namespace streamlint
