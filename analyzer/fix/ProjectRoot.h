#pragma once
// Where --fix may write when --fix-root is not given: the project the compile
// database describes, not the directory streamlint happens to run in.

#include <string>
#include <vector>

namespace streamlint {

/// The source tree of `sourceFiles` (absolute paths, e.g. the compile
/// database's entries): their deepest common directory, widened to the top
/// of the version-control checkout (.git, .hg, .svn, .jj) that holds it, so
/// headers next to the sources (include/ beside src/) are inside. Outside a
/// checkout (a release tarball), widened instead to CMake's source directory
/// (CMAKE_HOME_DIRECTORY in the CMakeCache.txt in `databaseDirectory`, the
/// directory of compile_commands.json) when it holds them. "" when there
/// are no files.
std::string projectRootOf(const std::vector<std::string> &sourceFiles,
                          const std::string &databaseDirectory = "");

/// CMAKE_HOME_DIRECTORY of `<buildDirectory>/CMakeCache.txt`, "" if none.
std::string cmakeSourceDirectory(const std::string &buildDirectory);

} // namespace streamlint
