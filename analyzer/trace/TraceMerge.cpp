#include "analyzer/trace/TraceMerge.h"

namespace streamlint {

llvm::Error mergeTraceFile(const std::string &path, AnalysisResult &) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 "%s: trace merging is not implemented yet",
                                 path.c_str());
}

} // namespace streamlint
