#include "analyzer/driver/Progress.h"
#include "analyzer/support/Paths.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace streamlint {

Progress::Progress(bool enabled, size_t total) : enabled_(enabled), total_(total) {
  if (!enabled_)
    return;
  llvm::SmallString<256> cwd;
  if (!llvm::sys::fs::current_path(cwd))
    base_ = std::string(cwd);
}

void Progress::finished(llvm::StringRef file, bool fromIndex, bool skippedWithoutCuda) {
  if (!enabled_)
    return;
  std::lock_guard<std::mutex> lock(mutex_);
  ++done_;
  std::string shown = base_.empty() ? file.str() : displayPath(absolutePath(file), base_);
  llvm::errs() << "[" << done_ << "/" << total_ << "] " << shown
               << (fromIndex            ? " (from the index)"
                   : skippedWithoutCuda ? " (no CUDA, skipped)"
                                        : "")
               << "\n";
  llvm::errs().flush();
}

} // namespace streamlint
