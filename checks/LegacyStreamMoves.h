#pragma once
// default-stream's moves of legacy-stream work, shared with device-sync: the
// stream edit at a site, and which calls of a function default-stream moves
// to a target. device-sync's narrowed wait to cudaStreamPerThread relies on
// them where the work the host waits for is on the legacy stream
// (docs/fixes.md, rule 10): its fix carries the same edits.

#include "analyzer/Finding.h"
#include "analyzer/analysis/OrderingSafety.h"
#include "analyzer/analysis/ProgramStream.h"
#include "analyzer/analysis/StreamResolution.h"
#include "analyzer/analysis/TranslationUnitContext.h"

#include <optional>
#include <string>
#include <vector>

namespace streamlint {

/// One call default-stream's fix moves off the legacy stream, and the edit
/// that moves it.
struct LegacyStreamMove {
  MovedCall moved;
  TextEdit edit;
};

/// The edit that passes `stream` at `site` of `call` (replacing the
/// written stream or inserting it); nullopt where the text cannot be edited.
std::optional<TextEdit> legacyStreamEdit(const clang::CallExpr &call,
                                         const StreamArgumentSite &site,
                                         const std::string &stream,
                                         TranslationUnitContext &context);

/// `call` as default-stream's fix would move it to `target` (null: to
/// cudaStreamPerThread, where no stream is in scope), if it would: a launch
/// or stream-ordered call on the default stream (omitted or 0, not spelled
/// cudaStreamLegacy, not in a per-thread-default-stream build), or a call of
/// a user function whose defaulted stream parameter reaches a stream use.
std::optional<LegacyStreamMove> legacyStreamMove(const clang::CallExpr &call,
                                                 const clang::FunctionDecl &function,
                                                 const clang::VarDecl *target,
                                                 StreamSuggester &suggester,
                                                 TranslationUnitContext &context,
                                                 bool perThreadBuild);

/// Whether an operation puts work on, or waits for, a stream variable (or
/// an unknown stream): a function with one is not all on the legacy stream.
bool usesStreamVariable(const StreamOperation &op);

/// Every call of `function` (operations `ops`) that default-stream moves to
/// cudaStreamPerThread together (rule 10), in a function that uses no stream
/// variable and whose target is the per-thread stream; empty otherwise.
std::vector<LegacyStreamMove> perThreadMoves(const clang::FunctionDecl &function,
                                             const FunctionOperations &ops,
                                             StreamSuggester &suggester,
                                             TranslationUnitContext &context,
                                             bool perThreadBuild);

} // namespace streamlint
