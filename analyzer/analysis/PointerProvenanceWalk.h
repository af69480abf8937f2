#pragma once
// Internal to PointerProvenance*.cpp: one query's walk state and the small
// constructors both files use. Not part of the analysis' interface.

#include "analyzer/analysis/PointerProvenance.h"

#include "llvm/ADT/SmallPtrSet.h"

namespace streamlint {

// Deep enough for helpers calling helpers; bounded so cycles through
// parameters cannot blow the stack.
constexpr unsigned MaxDepth = 12;

inline Provenance unknown() { return Provenance(); }

inline Provenance leaf(MemoryKind kind, std::string origin, clang::SourceLocation at,
                       const void *site, const clang::Expr *allocation = nullptr) {
  Provenance p;
  p.kind = kind;
  p.origin = std::move(origin);
  p.location = at;
  p.site = site;
  p.allocation = allocation;
  return p;
}

/// A parameter whose callers this TU does not all show: decided by the
/// whole-program pass (PointerProvenance.cpp).
Provenance openParameter(const clang::ParmVarDecl *parm, const clang::FunctionDecl *function);

struct PointerProvenance::Walk {
  const clang::Stmt *copy;
  const clang::FunctionDecl *copyFunction;
  unsigned depth = 0;
  bool applyRegistrations = true;
  llvm::SmallPtrSet<const void *, 8> active; // decls on the current path
};

} // namespace streamlint
