#pragma once
// Two rewrites of a device-wide wait that device-sync offers when the
// ordering analysis finds the pending work on known streams (docs/fixes.md,
// rules 7 to 9):
//
// * cudaDeviceSynchronize() after loops that issue their work to the streams
//   of one array, `for (H) k<<<..., streams[i]>>>()`: a loop with the same
//   header that waits for each of those streams,
//   `for (H) cudaStreamSynchronize(streams[i]);`;
// * a synchronous cudaMemcpy/cudaMemset/cudaMemcpy2D/cudaMemset2D while the
//   work pending is on one stream `s`: its Async form on `s`, then
//   cudaStreamSynchronize(s).
//
// Each gives the edits and the judgement of its ordering (OrderingSafety);
// the check decides applicability from the verdict.

#include "analyzer/Finding.h"
#include "analyzer/analysis/OrderingSafety.h"
#include "analyzer/analysis/TranslationUnitContext.h"

#include "clang/AST/Expr.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <functional>
#include <optional>
#include <string>

namespace streamlint {

/// Replacing the device-wide wait `sync` by a loop of cudaStreamSynchronize
/// over the streams of `array`: the operations `onArray` accepts are issued
/// to those streams (within the loop's range); every other pending one
/// keeps the device-wide wait, as for checkNarrowedWait (OrderingSafety.h).
OrderingVerdict checkNarrowedWaitToStreams(const clang::CallExpr &sync, const clang::ValueDecl &array,
                                           llvm::function_ref<bool(const StreamOperation &)> onArray,
                                           TranslationUnitContext &context, bool perThreadBuild,
                                           const OrderingAssumption &assume = {});

/// A rewrite with the stream it waits for and how to judge its ordering
/// under an assumption about the callers.
struct NarrowedWaitFix {
  FixIt fix;                                   ///< edits and description, not yet judged
  const clang::ValueDecl *target = nullptr;    ///< the stream (or the array of streams); null: cudaStreamPerThread
  std::function<OrderingVerdict(const OrderingAssumption &)> judge;
};

/// `for (H) cudaStreamSynchronize(a[i]);` for the device-wide wait `sync`
/// when the last work before it is issued in a loop `for (H)` to `a[i]`.
/// Nullopt when the work before it is not so, or the rewrite cannot be
/// written (`why` says which, for a suggestion's note).
std::optional<NarrowedWaitFix> streamArrayWaitFix(const clang::CallExpr &sync,
                                                  TranslationUnitContext &context,
                                                  bool perThreadBuild, std::string &why);

/// cudaDeviceSynchronize() `sync` -> one cudaStreamSynchronize per stream
/// its pending work is on: `s`, `a[K]` (K constant), and rule 8's loop for
/// `a[i]` issued in a loop of the wait's block, in the statement form of
/// the wait. Each stream must mean the same at the wait as where the work
/// was issued. Nullopt when no pending work is on such a stream.
std::optional<NarrowedWaitFix> namedStreamsWaitFix(const clang::CallExpr &sync,
                                                   TranslationUnitContext &context,
                                                   bool perThreadBuild);

/// The Async form of the synchronous copy or memset `copy` on `stream`
/// (null: cudaStreamPerThread), followed by a wait for `stream` in the same
/// statement form (an error check macro around the copy wraps the wait too).
std::optional<NarrowedWaitFix> asyncCopyFix(const clang::CallExpr &copy,
                                            const clang::VarDecl *stream,
                                            TranslationUnitContext &context,
                                            bool perThreadBuild);

} // namespace streamlint
