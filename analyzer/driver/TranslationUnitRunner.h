#pragma once
// Parsing one translation unit with clang and running the enabled checks on it.

#include "analyzer/Finding.h"
#include "analyzer/config/CheckOptions.h"
#include "analyzer/compiledb/CompileDatabase.h"
#include "analyzer/driver/PreambleParse.h"
#include "analyzer/index/IndexEntry.h"
#include "analyzer/reach/ReachSummary.h"
#include "checks/CheckRegistry.h"

#include <optional>
#include <vector>

namespace streamlint {

/// What one TU produced: findings, and a problem if it did not parse cleanly.
struct TranslationUnitOutcome {
  std::vector<Finding> findings;
  std::optional<TranslationUnitProblem> problem;
  bool checksRan = false;  // clang built an AST (maybe with recovery)
  bool skippedWithoutCuda = false; // not analyzed: it uses no CUDA
  /// This TU's call graph and deferred sites for the whole-program pass.
  reach::TranslationUnitSummary reach;
  /// The main file and every non-system file clang read, with the SHA-256
  /// of the bytes it parsed (the project index's dependencies).
  std::vector<index::IncludedFile> includes;
  /// A TU that stopped at a missing include: every path where clang looked
  /// for it (all absent). Its result holds while they stay absent.
  std::vector<std::string> absentFiles;
};

/// Parses `invocation` and runs every check `selection` enables. Never
/// throws; a TU with errors is still checked on clang's recovered AST. With
/// `preamble.store` set, the include prefix comes from a preamble when it
/// can (PreambleParse.h; `used` says whether one was reused or built); a
/// parse on a preamble that reports an error is done again without one.
/// With `keepAst`, a parse without errors leaves its AST allocated until
/// the process exits, as clang's own -fsyntax-only does (-disable-free):
/// for the one TU a process parses, whose freeing would only delay exit.
TranslationUnitOutcome analyzeTranslationUnit(const ClangInvocation &invocation,
                                              const CheckRegistry &registry,
                                              const CheckSelection &selection,
                                              const CheckOptions &options,
                                              const PreambleRequest &preamble = {},
                                              PreambleUse *used = nullptr,
                                              bool keepAst = false);

} // namespace streamlint
