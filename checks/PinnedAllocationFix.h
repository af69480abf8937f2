#pragma once
// pageable-memcpy-async's fix: the malloc/new[] behind a pageable host
// buffer becomes cudaMallocHost and every free of it cudaFreeHost. Applies
// to a buffer local to one function, to a global with internal linkage
// allocated once, and to the result of an allocation wrapper (a function of
// this TU, called only here, that returns malloc's result). Every free site
// must be known, and the host must not touch the buffer (or anything the
// copy's stream writes) between a copy and the wait for it: pageable copies
// make the host wait, pinned ones do not.

#include "analyzer/Finding.h"
#include "analyzer/analysis/PointerProvenance.h"
#include "analyzer/analysis/TranslationUnitContext.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include <string>

namespace streamlint {

/// `e` without parentheses and casts of any kind (implicit and written).
const clang::Expr *stripCasts(const clang::Expr *e);
/// Whether `e`, casts aside, names `var`.
bool refersTo(const clang::Expr *e, const clang::VarDecl *var);

/// The size in bytes of malloc(n) / new T[n] as text; nullopt (with why)
/// for other allocations.
std::optional<std::string> pinnedAllocationSize(const clang::Expr *allocation,
                                                TranslationUnitContext &context,
                                                std::string &why);
/// Why `function`, receiving the buffer as argument `index`, may free or
/// keep it ("'f' is not defined in this file and could free it"), or "".
std::string argumentReleaser(const clang::FunctionDecl *function, unsigned index);

/// The fix, or what blocks it (a sentence, "" when the memory is not a
/// malloc/new[] buffer at all).
struct PinnedFixPlan {
  std::optional<FixIt> fix;
  std::string blocked;
};

class PinnedAllocationFixer {
public:
  PinnedAllocationFixer(TranslationUnitContext &context, PointerProvenance &provenance)
      : context_(context), provenance_(provenance) {}

  /// The fix for `memory` (a pageable buffer read at a copy in `function`);
  /// each buffer gets one fix, at its first copy.
  PinnedFixPlan plan(const Provenance &memory, const clang::FunctionDecl *function);

private:
  PinnedFixPlan local(const clang::VarDecl *var, const clang::Expr *allocation,
                      const clang::FunctionDecl *function);
  PinnedFixPlan global(const clang::VarDecl *var, const clang::Expr *allocation);
  PinnedFixPlan wrapper(const clang::Expr *allocation, const clang::FunctionDecl *wrapperFunction);

  TranslationUnitContext &context_;
  PointerProvenance &provenance_;
  llvm::SmallPtrSet<const void *, 8> fixed_; // one fix per buffer
  bool resetChecked_ = false;
  const clang::CallExpr *reset_ = nullptr; // cudaDeviceReset in the TU
};

} // namespace streamlint
