#pragma once
// A wait loop `for (int j = A; j < B; ++j) cudaStreamSynchronize(a[j]);`
// covers the work an earlier loop of the same block, with the same header,
// issued to `a[i]` (docs/fixes.md, rule 8, "a later wait loop"). Used by the
// walks that compute what is pending at a call or a return (CallerWalk.h).

#include "analyzer/analysis/StreamOperations.h"

#include "clang/AST/Decl.h"

namespace streamlint {

/// Whether every stream `work` (issued to `a[i]` in `for (int i = A; i < B;
/// ++i)`) was issued to is waited for by `wait` (cudaStreamSynchronize(a[j])
/// directly in `for (int j = A; j < B; ++j)`, a later statement of the same
/// block) whenever that block reaches the wait loop after the work: the same
/// bounds (constants or variables never written from the first loop on), the
/// same array (only read element by element, no cudaStreamDestroy from the
/// first loop to the wait loop), both bodies only read their counter, and
/// nothing from the first loop to the end of the wait loop leaves the block
/// (break, continue, goto) or skips the wait.
bool waitLoopCovers(const StreamOperation &wait, const StreamOperation &work,
                    const clang::FunctionDecl &function);

/// Whether `stmt` can leave the block it is a statement of, or the current
/// iteration of an enclosing loop, other than by reaching its end: a break
/// or continue not bound inside it (by a loop, or a switch for break), a goto.
bool escapes(const clang::Stmt *stmt, bool breakBound = false, bool continueBound = false);

/// The issuing or wait loop (the `for` over the counter of the call's
/// `a[i]` stream) that holds the operation, or null.
const clang::ForStmt *streamArrayLoop(const StreamOperation &op);

} // namespace streamlint
