#include "analyzer/fix/ProjectRoot.h"
#include "analyzer/support/Paths.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

namespace streamlint {
namespace {

bool isCheckoutTop(llvm::StringRef directory) {
  for (const char *marker : {".git", ".hg", ".svn", ".jj"}) {
    llvm::SmallString<256> path(directory);
    llvm::sys::path::append(path, marker);
    if (llvm::sys::fs::exists(path))
      return true;
  }
  return false;
}

} // namespace

std::string cmakeSourceDirectory(const std::string &buildDirectory) {
  if (buildDirectory.empty())
    return "";
  llvm::SmallString<256> cache(buildDirectory);
  llvm::sys::path::append(cache, "CMakeCache.txt");
  auto text = llvm::MemoryBuffer::getFile(cache, /*IsText=*/true);
  if (!text || (*text)->getBufferSize() > (64u << 20))
    return "";
  llvm::SmallVector<llvm::StringRef, 0> lines;
  (*text)->getBuffer().split(lines, '\n');
  for (llvm::StringRef line : lines) {
    // CMAKE_HOME_DIRECTORY:INTERNAL=/path/to/source
    if (!line.consume_front("CMAKE_HOME_DIRECTORY:"))
      continue;
    llvm::StringRef value = line.split('=').second.rtrim("\r");
    if (value.empty() || !llvm::sys::path::is_absolute(value) ||
        !llvm::sys::fs::is_directory(value))
      return "";
    return value.str();
  }
  return "";
}

std::string projectRootOf(const std::vector<std::string> &sourceFiles,
                          const std::string &databaseDirectory) {
  std::string common;
  for (const std::string &file : sourceFiles) {
    std::string directory(llvm::sys::path::parent_path(absolutePath(file)));
    if (common.empty()) {
      common = directory;
      continue;
    }
    // Shorten `common` until `directory` is it or inside it.
    while (common != "/" && !(directory == common ||
                              llvm::StringRef(directory).starts_with(common + "/")))
      common = std::string(llvm::sys::path::parent_path(common));
  }
  if (common.empty() || common == "/")
    return common;
  for (llvm::StringRef up = common; !up.empty() && up != "/";
       up = llvm::sys::path::parent_path(up))
    if (isCheckoutTop(up))
      return up.str();
  std::string cmakeSource = cmakeSourceDirectory(databaseDirectory);
  auto under = [](const std::string &path, const std::string &directory) {
    return path == directory || llvm::StringRef(path).starts_with(directory + "/");
  };
  if (!cmakeSource.empty() &&
      (under(common, cmakeSource) || under(realPathOf(common), realPathOf(cmakeSource))))
    return cmakeSource;
  return common;
}

} // namespace streamlint
