#pragma once
// The one glob matcher for check selections (--checks, Checks:), NOLINT
// check lists and ExcludePaths: llvm::GlobPattern's syntax (`*`, `?`,
// `[a-z]`, `{a,b}`; `*` also crosses `/`). A pattern that is not a valid glob
// matches only the identical text; config files reject such patterns with
// an error before this is reached (ConfigFile.cpp).

#include "llvm/ADT/StringRef.h"

namespace streamlint {

bool globMatches(llvm::StringRef pattern, llvm::StringRef text);

} // namespace streamlint
