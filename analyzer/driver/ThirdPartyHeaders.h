#pragma once
// Findings in headers outside the project (a framework's include directory
// passed with -I, as torch.utils.cpp_extension passes PyTorch's) are not
// reported by default, as clang-tidy's header filter leaves them out: the
// user cannot change that code. docs/third-party-headers.md.

#include "analyzer/compiledb/CompileDatabase.h"
#include "analyzer/config/ConfigResolver.h"

#include <string>
#include <vector>

namespace streamlint {

/// The directories whose files are the project's: the source tree of the
/// entries' files and build directories (their common directory, widened to
/// the version-control checkout that holds it or, outside one, to CMake's
/// source directory named by the CMakeCache.txt in `databaseDirectory`: the
/// tree --fix writes under) and `fixRoot` when given.
/// Empty when that tree is the file system's root (nothing is told apart).
std::vector<std::string> projectDirectories(const std::vector<CompileEntry> &entries,
                                            const std::string &fixRoot,
                                            const std::string &databaseDirectory = "");

/// Whether `file` (absolute, clean) lies outside every one of `directories`;
/// false when there are none.
bool outsideProject(const std::string &file, const std::vector<std::string> &directories);

/// The directories `unit`'s checks walk (ClangInvocation::walkedDirectories):
/// the project's while no finding outside them can be reported, that is with
/// no header filter in the unit's config and no named header outside them
/// (--third-party-headers leaves `projectDirectories` empty). Empty: all code
/// outside system headers is walked.
std::vector<std::string> walkedDirectoriesOf(const EffectiveConfig &config,
                                             const std::vector<std::string> &projectDirectories,
                                             const std::vector<std::string> &namedHeaders);

} // namespace streamlint
