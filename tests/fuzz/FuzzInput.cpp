#include "tests/fuzz/FuzzInput.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <map>

namespace streamlint::fuzz {

std::string writeScratchFile(const uint8_t *data, size_t size,
                             const std::string &suffix) {
  static std::map<std::string, std::string> paths;
  std::string &path = paths[suffix];
  if (path.empty()) {
    llvm::SmallString<128> directory;
    if (llvm::sys::fs::createUniqueDirectory("streamlint-fuzz", directory))
      abort();
    llvm::sys::path::append(directory, suffix);
    path = std::string(directory);
  }
  std::error_code error;
  llvm::raw_fd_ostream out(path, error);
  if (error)
    abort();
  out.write(reinterpret_cast<const char *>(data), size);
  return path;
}

} // namespace streamlint::fuzz
