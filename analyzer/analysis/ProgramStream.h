#pragma once
// The stream a fix should pass where a call uses the default stream: the
// stream the surrounding code demonstrably runs its work on. A local stream
// of the function first (uniqueStreamInScope); else the one global or member
// stream the function's other work runs on; else the one the rest of the
// TU's code (for a member stream, the class's methods) runs on. Only when
// none is in evidence do checks fall back to advising cudaStreamPerThread.

#include "analyzer/analysis/StreamOperations.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <map>
#include <memory>
#include <optional>
#include <vector>
#include <string>

namespace streamlint {

/// A stream to pass at one site, and the evidence for it.
struct SuggestedStream {
  const clang::ValueDecl *stream = nullptr; ///< variable, parameter or field
  std::string spelling;                     ///< what to write at the site
  /// Why this one, for the fix's description: "the stream this function
  /// already uses", "the stream this function's other work runs on", ...
  std::string evidence;
  /// True when the function itself uses the stream; false when only other
  /// functions of the TU or class do (advice, not an automatic edit).
  bool usedByFunction = false;
};

/// Suggests the stream to pass at the sites of one TU. What each function's
/// calls pass is gathered once per function, and the TU's functions are
/// grouped by scope (the free functions, each class's methods) once:
/// suggest() is asked per finding, and scanning the TU again for each one
/// made a TU of many launching functions quadratic (1,000 of them: 19 s).
class StreamSuggester {
public:
  explicit StreamSuggester(clang::ASTContext &ast);
  ~StreamSuggester();

  /// Nullopt when no single stream is in evidence (say so instead of guessing).
  std::optional<SuggestedStream> suggest(const clang::FunctionDecl &function,
                                         const clang::Stmt &site);

  /// Whether the fixes that move `function`'s legacy-stream work, or make its
  /// synchronous copies Async, target the per-thread default stream
  /// (docs/fixes.md, rule 10): no legacy-stream operation among `ops` (the
  /// function's) has a stream to suggest, so default-stream and device-sync
  /// agree on the target.
  bool perThreadIsTarget(const clang::FunctionDecl &function, const FunctionOperations &ops);

private:
  struct Uses;
  const Uses &usesIn(const clang::FunctionDecl &function);
  const Uses &usesInScope(const clang::CXXRecordDecl *record);

  clang::ASTContext &ast_;
  std::map<const clang::FunctionDecl *, std::unique_ptr<Uses>> functions_;
  std::map<const clang::CXXRecordDecl *, std::unique_ptr<Uses>> scopes_;
  /// The TU's user function definitions by scope (null: free functions),
  /// in AST order; filled on first use.
  std::optional<std::map<const clang::CXXRecordDecl *,
                         std::vector<const clang::FunctionDecl *>>> byScope_;
};

} // namespace streamlint
