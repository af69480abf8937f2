#pragma once
// What refuses a stream-changing fix before any walk (OrderingSafety.h):
// a target stream destroyed before the work, and a callee that does not put
// all its work on the stream parameter the fix passes.

#include "analyzer/analysis/OrderingSafety.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <string>

namespace streamlint {

/// The cudaStreamDestroy(target) of `function` that comes before `site`
/// (or repeats with it in a loop): work moved there, or a wait narrowed to
/// it, would use a destroyed stream (graphConditionalNodes on an H100:
/// cudaErrorContextIsDestroyed). Null when there is none.
const clang::CallExpr *destroyedBefore(const clang::FunctionDecl &function,
                                       const clang::ValueDecl &target, const clang::Stmt &site,
                                       TranslationUnitContext &context);

/// The refusal for work moved to (or a wait narrowed to) a destroyed stream.
OrderingVerdict destroyedVerdict(const clang::CallExpr &destroy, const clang::ValueDecl &target,
                                 const clang::FunctionDecl &function,
                                 TranslationUnitContext &context);

/// Inside the callee, everything must use the stream parameter (or wait):
/// "" when it does, else what does not.
std::string calleeProblem(const clang::CallExpr &call, const clang::ParmVarDecl &parameter,
                          TranslationUnitContext &context, bool perThreadBuild);

} // namespace streamlint
