#pragma once
// The stream a fix should pass where a call uses the default stream: the
// stream the surrounding code demonstrably runs its work on. A local stream
// of the function first (uniqueStreamInScope); else the one global or member
// stream the function's other work runs on; else the one the rest of the
// TU's code (for a member stream, the class's methods) runs on. Only when
// none is in evidence do checks fall back to advising cudaStreamPerThread.

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <optional>
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

/// Nullopt when no single stream is in evidence (say so instead of guessing).
std::optional<SuggestedStream> suggestedStream(const clang::FunctionDecl &function,
                                               const clang::Stmt &site,
                                               clang::ASTContext &ast);

} // namespace streamlint
