#pragma once
// Branches that do not repeat with their loop: error handling
// (`if (err != cudaSuccess) { cudaFree(p); return err; }`) and branches that
// leave the function (`return`, `throw`, a noreturn call such as exit()),
// and lazy initialization (`if (!handle) { cublasCreate(&handle); }`).
// Their calls run at most once per run of the loop around them, so for the
// reach analysis they are not on the loop's hot path; error handling's
// allocations, frees and synchronizations are not the function's steady-state
// behaviour either (a function that frees only when a call fails does not
// churn memory in its callers' loops).

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"

namespace streamlint {

enum class BranchKind {
  Repeats,        ///< runs each time its loop iterates (as far as we know)
  LeavesFunction, ///< ends in return, throw or a noreturn call
  HandlesError,   ///< runs when a CUDA/library status says the call failed
  LazyInit,       ///< `if (p == nullptr) { p = ...; }`: runs once per object
};

/// The then-branch (`thenBranch`) or else-branch of `branch`.
BranchKind classifyBranch(const clang::IfStmt &branch, bool thenBranch,
                          const clang::ASTContext &ast);

} // namespace streamlint
