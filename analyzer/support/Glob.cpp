#include "analyzer/support/Glob.h"

#include "llvm/Support/GlobPattern.h"

namespace streamlint {

bool globMatches(llvm::StringRef pattern, llvm::StringRef text) {
  llvm::Expected<llvm::GlobPattern> glob = llvm::GlobPattern::create(pattern);
  if (!glob) {
    llvm::consumeError(glob.takeError());
    return pattern == text;
  }
  return glob->match(text);
}

} // namespace streamlint
