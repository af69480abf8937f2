#include "analyzer/fix/ProjectRoot.h"
#include "analyzer/support/Paths.h"

#include "llvm/Support/FileSystem.h"
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

std::string projectRootOf(const std::vector<std::string> &sourceFiles) {
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
  return common;
}

} // namespace streamlint
