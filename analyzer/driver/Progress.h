#pragma once
// `[N/M] file` on stderr as each translation unit finishes, as run-clang-tidy
// prints: a cold run over a large database says it is working. On by default
// when stderr is a terminal; --progress / --progress=false force it (CI logs).

#include "llvm/ADT/StringRef.h"

#include <mutex>
#include <string>

namespace streamlint {

class Progress {
public:
  /// `enabled` false prints nothing; `total` units are expected.
  Progress(bool enabled, size_t total);
  /// One unit is done: its file, and whether its result came from the index
  /// or it was skipped for using no CUDA. Thread safe.
  void finished(llvm::StringRef file, bool fromIndex, bool skippedWithoutCuda);

private:
  bool enabled_;
  size_t total_;
  size_t done_ = 0;
  std::string base_; // the working directory: files are shown relative to it
  std::mutex mutex_;
};

} // namespace streamlint
