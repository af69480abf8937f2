#include "analyzer/support/Paths.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <vector>

namespace streamlint {

std::string absolutePath(llvm::StringRef path) {
  llvm::SmallString<256> absolute(path);
  llvm::sys::fs::make_absolute(absolute);
  llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
  return std::string(absolute);
}

std::string realPathOf(llvm::StringRef path) {
  std::string absolute = absolutePath(path);
  llvm::SmallString<256> real;
  if (llvm::sys::fs::real_path(absolute, real, /*expand_tilde=*/false))
    return absolute;
  return std::string(real);
}

std::optional<std::string> pathUnderBase(const std::string &path,
                                         const std::string &directory) {
  if (directory.empty())
    return std::nullopt;
  llvm::StringRef base = directory;
  while (base.size() > 1 && base.ends_with("/"))
    base = base.drop_back();
  llvm::StringRef p = path;
  if (base == "/")
    return p.starts_with("/") && p.size() > 1 ? std::optional(p.drop_front().str())
                                              : std::nullopt;
  if (!p.starts_with(base) || p.size() <= base.size() + 1 || p[base.size()] != '/')
    return std::nullopt;
  return p.drop_front(base.size() + 1).str();
}

std::string displayPath(const std::string &path, const std::string &directory) {
  if (std::optional<std::string> relative = pathUnderBase(path, directory))
    return *relative;
  return path;
}

std::string relativePath(const std::string &directory, const std::string &file) {
  namespace path = llvm::sys::path;
  std::vector<llvm::StringRef> from(path::begin(directory), path::end(directory));
  std::vector<llvm::StringRef> to(path::begin(file), path::end(file));
  size_t common = 0;
  while (common < from.size() && common < to.size() && from[common] == to[common])
    ++common;
  std::string relative;
  auto append = [&](llvm::StringRef component) {
    if (!relative.empty())
      relative += '/';
    relative += component.str();
  };
  for (size_t i = common; i < from.size(); ++i)
    append("..");
  for (size_t i = common; i < to.size(); ++i)
    append(to[i]);
  return relative;
}

} // namespace streamlint
