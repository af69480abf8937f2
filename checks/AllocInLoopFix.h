#pragma once
// alloc-in-loop's fix: an allocation and its free in the same loop iteration
// become one allocation before the loop and one free after it (the size is
// loop-invariant), or a buffer that grows when a larger size is needed (the
// size varies). Every condition under which that would change what the
// program computes is checked; see docs/checks/alloc-in-loop.md.

#include "analyzer/Finding.h"
#include "analyzer/analysis/TranslationUnitContext.h"
#include "analyzer/reach/TranslationUnitReach.h"

#include <optional>
#include <string>

namespace streamlint {

/// The fix for one allocation, or why there is none.
struct LoopAllocationFix {
  /// The hoist or the reuse-with-growth edit. Not applicable (a suggestion
  /// whose description ends in "not applied by --fix: <why>") when the edit
  /// can be made but could change what the program computes.
  std::optional<FixIt> fix;
  /// Why no edit can be made at all, when `fix` is empty ("the allocation
  /// is inside an if in the loop body").
  std::string refusal;
};

/// `alloc` and `free` are calls of the same loop iteration (`alloc.loops`
/// innermost first) releasing one local buffer.
LoopAllocationFix planLoopAllocationFix(TranslationUnitContext &context,
                                        const reach::TranslationUnitReach &reach,
                                        const reach::CallSite &alloc,
                                        const reach::CallSite &free);

/// One fix for several buffers of one loop: their edits, with the
/// insertions before and after the loop joined in the order given. Each
/// buffer's fix stays valid when the others move too: only explicit waits
/// count for implicitWaitProblem, never another buffer's free.
FixIt combinedLoopFix(llvm::ArrayRef<FixIt> fixes);

/// `&p` / `(void **)&p` (allocations, addressOf) or `p` (frees) -> p.
const clang::VarDecl *loopBufferVariable(const clang::Expr *argument, bool addressOf);

} // namespace streamlint
