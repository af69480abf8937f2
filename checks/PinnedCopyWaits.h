#pragma once
// What changes when a pageable host buffer becomes pinned: its async copies
// really become asynchronous. With pageable memory, cudaMemcpyAsync to the
// host returns when the copy is done, and from the host it returns after
// waiting for the stream's earlier work; with pinned memory it returns at
// once. So the host must not touch the buffer, nor read memory that device
// work may write, between such a copy and a wait that covers it.

#include "analyzer/analysis/PointerProvenance.h"
#include "analyzer/analysis/TranslationUnitContext.h"

#include <string>
#include <vector>

namespace streamlint {

/// "" when every async copy of `buffer` in `functions` is followed, on every
/// path, by a wait for its stream (cudaStreamSynchronize of the same stream,
/// cudaDeviceSynchronize, a free of the buffer, a synchronous copy for the
/// default stream, exit) before the host reads or writes memory through a
/// pointer that is not known pageable or calls code it cannot see; else the
/// first place that breaks this. For a `local` buffer the end of the
/// function counts as a wait (nothing else can reach the buffer).
std::string copyWaitProblem(TranslationUnitContext &context, PointerProvenance &provenance,
                            const clang::ValueDecl *buffer,
                            const std::vector<const clang::FunctionDecl *> &functions,
                            bool local);

/// The functions of the TU whose bodies refer to `var` (a variable, or a
/// member of any object of its class).
std::vector<const clang::FunctionDecl *> functionsUsing(TranslationUnitContext &context,
                                                        const clang::ValueDecl *var);

/// The local variable `call`'s result is stored in (`T *p = f();` or a
/// statement `p = f();`), or nullptr.
const clang::VarDecl *resultHolder(TranslationUnitContext &context, const clang::CallExpr *call);

} // namespace streamlint
