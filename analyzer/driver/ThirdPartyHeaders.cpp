#include "analyzer/driver/ThirdPartyHeaders.h"

#include "analyzer/fix/ProjectRoot.h"
#include "analyzer/support/Paths.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

namespace streamlint {

std::vector<std::string> projectDirectories(const std::vector<CompileEntry> &entries,
                                            const std::string &fixRoot,
                                            const std::string &databaseDirectory) {
  std::vector<std::string> files;
  for (const CompileEntry &entry : entries) {
    files.push_back(absolutePath(entry.file));
    // The build directory counts (CMake's build/ beside src/ and include/):
    // a file inside it stands for it.
    if (!entry.directory.empty()) {
      llvm::SmallString<256> inside(absolutePath(entry.directory));
      llvm::sys::path::append(inside, "compile_commands.json");
      files.push_back(std::string(inside));
    }
  }
  std::vector<std::string> directories;
  std::string root = projectRootOf(files, databaseDirectory);
  if (root.empty() || root == "/")
    return directories;
  directories.push_back(root);
  if (!fixRoot.empty())
    directories.push_back(absolutePath(fixRoot));
  return directories;
}

bool outsideProject(const std::string &file, const std::vector<std::string> &directories) {
  if (directories.empty())
    return false;
  for (const std::string &directory : directories)
    if (pathUnderBase(file, directory))
      return false;
  return true;
}

std::vector<std::string> walkedDirectoriesOf(const EffectiveConfig &config,
                                             const std::vector<std::string> &projectDirectories,
                                             const std::vector<std::string> &namedHeaders) {
  if (!config.headerFilterRegex.empty())
    return {};
  for (const std::string &header : namedHeaders)
    if (outsideProject(header, projectDirectories))
      return {};
  return projectDirectories;
}

} // namespace streamlint
