#include "analyzer/driver/NamedFiles.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"

namespace streamlint {

bool isHeaderFile(const std::string &path) {
  std::string ext = llvm::StringRef(llvm::sys::path::extension(path)).lower();
  for (const char *header : {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".ipp",
                             ".tcc", ".inc"})
    if (ext == header)
      return true;
  return false;
}

static size_t sharedDirectoryDepth(llvm::StringRef a, llvm::StringRef b) {
  auto i = llvm::sys::path::begin(a), ie = llvm::sys::path::end(a);
  auto j = llvm::sys::path::begin(b), je = llvm::sys::path::end(b);
  size_t depth = 0;
  for (; i != ie && j != je && *i == *j; ++i, ++j)
    ++depth;
  return depth;
}

static bool isCudaSource(llvm::StringRef path) {
  return llvm::StringRef(llvm::sys::path::extension(path)).lower() == ".cu";
}

size_t nearestEntry(const std::vector<CompileEntry> &entries,
                    const std::string &file) {
  llvm::StringRef directory = llvm::sys::path::parent_path(file);
  bool wantsCuda = isCudaSource(file) ||
                   llvm::StringRef(llvm::sys::path::extension(file)).lower() == ".cuh";
  size_t best = 0;
  std::pair<size_t, bool> bestScore{0, false};
  for (size_t i = 0; i < entries.size(); ++i) {
    std::pair<size_t, bool> score{
        sharedDirectoryDepth(directory, llvm::sys::path::parent_path(entries[i].file)),
        isCudaSource(entries[i].file) == wantsCuda};
    if (i == 0 || score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return best;
}

} // namespace streamlint
