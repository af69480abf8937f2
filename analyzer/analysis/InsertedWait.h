#pragma once
// The `cudaStreamSynchronize(target);` a stream-changing fix inserts before
// an operation that relied on the old ordering (OrderingSafety.h).

#include "analyzer/Finding.h"
#include "analyzer/analysis/TranslationUnitContext.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <optional>

namespace streamlint {

/// `cudaStreamSynchronize(target);` on its own line before the statement
/// holding `before`, when that statement sits in a block, does not contain
/// `work` (the moved work or narrowed wait), and `target` is in scope
/// there (null: cudaStreamPerThread, always in scope); nullopt otherwise.
std::optional<TextEdit> insertedWait(const clang::Stmt &before, const clang::Stmt &work,
                                     const clang::ValueDecl *target,
                                     TranslationUnitContext &context);

} // namespace streamlint
