#pragma once
// Where stream values come from, for the whole-program ordering summary:
// shared by the TU's facts (CallerOrdering) and the conditional fixes
// (ConditionalOrdering).

#include "analyzer/analysis/OrderingSummary.h"
#include "analyzer/analysis/StreamOperations.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"

#include <string>

namespace streamlint {

/// A key for a function, global or member that is the same in every TU:
/// its USR (of the template pattern for an instantiation); "" when none.
std::string orderingKey(const clang::Decl &decl);

/// Where `function`'s definition is (its template's, for an
/// instantiation): its file's real path and the line
/// (OrderedFunction::definedAt); no file when it has none.
SourcePoint definitionPlace(const clang::FunctionDecl &function,
                            const clang::SourceManager &sources);

/// The summary's blocking kind for StreamOperations' one, and back.
ordering::Blocking toBlocking(StreamBlocking blocking);
StreamBlocking fromBlocking(ordering::Blocking blocking);

/// The global or member stream `expr` names (through `&` and parentheses).
const clang::ValueDecl *writtenStream(const clang::Expr *expr);
/// `expr` without parentheses, implicit casts and one leading `&`: the
/// operand a stream out-parameter or a stream read names.
const clang::Expr *withoutAddressOf(const clang::Expr *expr);

/// Where a stream value at a call or write in `function` comes from.
ordering::StreamSource sourceOf(const clang::Expr *value, const clang::FunctionDecl &function,
                                clang::ASTContext &ast);

} // namespace streamlint
