#include "checks/AllocInLoopWaits.h"

#include "analyzer/analysis/SingleRunLoop.h"
#include "analyzer/analysis/StandardLibraryCalls.h"
#include "analyzer/analysis/StreamResolution.h"
#include "checks/AllocInLoopLifetime.h"
#include "api/CudaApiTable.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <vector>

namespace streamlint {
namespace {

/// What one call does, as far as the free's implicit wait is concerned.
struct Operation {
  enum Kind { Neutral, Work, Wait, WaitAll } kind = Neutral;
  std::string stream; // "default", "per-thread", "var:<name>@<addr>", or "" (unknown)
  std::string what;   // "the kernel launch at line 12"
  clang::SourceLocation at;
  /// Waits: the loop whose own work it covers; null: everything before it.
  const clang::Stmt *scope = nullptr;
};

std::string streamKey(const clang::Expr *argument, clang::ASTContext &ast) {
  if (!argument || llvm::isa<clang::CXXDefaultArgExpr>(argument))
    return "default";
  StreamClassification stream = classifyStreamArgument(argument, ast);
  switch (stream.kind) {
  case StreamKind::Omitted:
  case StreamKind::Null:
    return "default";
  case StreamKind::Legacy:
    return "legacy";
  case StreamKind::PerThread:
    return "per-thread";
  case StreamKind::Named:
    return stream.variable ? "var:" + stream.variable->getNameAsString() + "@" +
                                 std::to_string(reinterpret_cast<uintptr_t>(stream.variable))
                           : "";
  case StreamKind::Unknown:
    return "";
  }
  return "";
}

/// Where a wait at `stmt` is known to have run: nullptr when it is in a
/// branch (it may not run); the innermost repeating loop around it, below
/// `top`, whose own earlier work it covers; or `top` itself (everything
/// before it is covered).
const clang::Stmt *waitScope(const clang::Stmt *stmt, const clang::Stmt *top,
                             clang::ASTContext &ast) {
  const clang::Stmt *current = stmt;
  while (current != top) {
    const clang::Stmt *parent = parentStatement(ast, current);
    if (!parent)
      return nullptr;
    if (llvm::isa<clang::IfStmt, clang::SwitchStmt, clang::AbstractConditionalOperator,
                  clang::CaseStmt, clang::DefaultStmt>(parent)) {
      const auto *branch = llvm::dyn_cast<clang::IfStmt>(parent);
      if (!branch || current != branch->getCond())
        return nullptr;
    }
    if (const auto *logical = llvm::dyn_cast<clang::BinaryOperator>(parent))
      if (logical->isLogicalOp() && current == logical->getRHS())
        return nullptr;
    if (parent != top && isRepeatingLoop(*parent, ast))
      return parent;
    current = parent;
  }
  return top;
}

bool libraryDoingWork(llvm::StringRef name) {
  for (llvm::StringRef prefix : {"cublas", "cufft", "curand", "cusparse", "cusolver",
                                 "cudnn", "nccl", "cutensor", "thrust::", "cub::"})
    if (name.starts_with(prefix))
      return true;
  return false;
}

Operation classify(const reach::CallSite &site, const clang::Stmt *top,
                   TranslationUnitContext &context) {
  clang::ASTContext &ast = context.ast();
  Operation op;
  op.at = site.expr->getBeginLoc();
  std::string line =
      " at line " + std::to_string(context.sources().getExpansionLineNumber(op.at));
  if (!site.call || !site.steadyState)
    return op;
  if (site.kernelLaunch) {
    std::optional<StreamArgumentSite> argument = streamArgumentOf(*site.call);
    op = {Operation::Work, streamKey(argument ? argument->argument : nullptr, ast),
          "the kernel launch" + line, op.at};
    return op;
  }
  const api::ApiInfo *info = site.cudaApi ? api::findApi(api::baseName(site.name)) : nullptr;
  std::string name(api::baseName(site.name));
  if (info) {
    auto argument = [&](int index) -> const clang::Expr * {
      return index >= 0 && unsigned(index) < site.call->getNumArgs() ? site.call->getArg(index)
                                                                     : nullptr;
    };
    const clang::Stmt *scope = waitScope(site.expr, top, ast);
    bool waits = scope != nullptr;
    if (scope == top)
      scope = nullptr;
    if (info->sync == api::SyncKind::Device)
      return {waits ? Operation::WaitAll : Operation::Neutral, "", name + line, op.at, scope};
    if (info->sync == api::SyncKind::Stream)
      return {waits ? Operation::Wait : Operation::Neutral, streamKey(argument(0), ast),
              name + line, op.at, scope};
    if (info->sync == api::SyncKind::DefaultStream) {
      int direction = info->fixedDirection;
      clang::Expr::EvalResult value;
      if (const clang::Expr *kind = argument(info->kindIndex))
        if (!kind->isValueDependent() && kind->EvaluateAsInt(value, ast))
          direction = int(value.Val.getInt().getExtValue());
      // A copy to the host returns when it and the default stream's earlier
      // work are done; other synchronous copies and memsets may still run.
      bool toHost = direction == api::DeviceToHost && waits;
      return {toHost ? Operation::Wait : Operation::Work, "default", name + line, op.at,
              scope};
    }
    if (info->enqueues || info->launch || info->asyncHostCopy)
      return {Operation::Work, streamKey(argument(info->streamIndex), ast), name + line, op.at};
    return op; // allocation, queries, event and stream creation: no device work
  }
  if (site.userCall && !site.opaque)
    return {Operation::Work, "", "the call of '" + site.name + "'" + line, op.at};
  if (site.opaque && libraryDoingWork(site.name))
    return {Operation::Work, "", "the library call '" + site.name + "'" + line, op.at};
  // Opaque: a system header's function, or a virtual call (any overrider).
  const clang::FunctionDecl *callee = site.call->getDirectCallee();
  const clang::SourceManager &sm = context.sources();
  bool system = callee && sm.isInSystemHeader(sm.getExpansionLoc(callee->getLocation()));
  if (site.opaque && !system)
    return {Operation::Work, "", "the virtual call of '" + site.name + "'" + line, op.at};
  // The C and C++ libraries do no device work, unless they call the
  // program's code they are given (a lambda, a functor, a function pointer).
  if (site.opaque && passesProgramCallable(*site.call, sm))
    return {Operation::Work, "", "the call of '" + site.name + "' with code of the program" + line,
            op.at};
  return op;
}

/// Applies `ops` in order to `pending`. A wait inside an inner loop covers
/// only that loop's work: the loop may run zero times.
void run(const std::vector<Operation> &ops, std::vector<Operation> &pending,
         const clang::SourceManager &sm) {
  auto inScope = [&](const Operation &wait, const Operation &work) {
    if (!wait.scope)
      return true;
    return work.at.isValid() && !sm.isBeforeInTranslationUnit(work.at, wait.scope->getBeginLoc()) &&
           !sm.isBeforeInTranslationUnit(wait.scope->getEndLoc(), work.at);
  };
  for (const Operation &op : ops) {
    if (op.kind == Operation::Work)
      pending.push_back(op);
    else if (op.kind == Operation::WaitAll)
      llvm::erase_if(pending, [&](const Operation &p) { return inScope(op, p); });
    else if (op.kind == Operation::Wait && !op.stream.empty())
      llvm::erase_if(pending, [&](const Operation &p) {
        return p.stream == op.stream && inScope(op, p);
      });
  }
}

} // namespace

std::string implicitWaitProblem(TranslationUnitContext &context,
                                const reach::TranslationUnitReach &reach,
                                const reach::CallSite &alloc, const reach::CallSite &free) {
  const clang::SourceManager &sm = context.sources();
  const clang::Stmt *loop = alloc.loops.front();
  auto before = [&](const reach::CallSite *a, const reach::CallSite *b) {
    return sm.isBeforeInTranslationUnit(a->expr->getBeginLoc(), b->expr->getBeginLoc());
  };
  std::vector<const reach::CallSite *> inLoop = reach.callsInLoop(loop);
  llvm::sort(inLoop, before);
  std::vector<Operation> beforeFree, afterFree, beforeLoop;
  for (const reach::CallSite *site : inLoop) {
    if (site == &alloc || site == &free)
      continue;
    Operation op = classify(*site, loop, context);
    (before(site, &free) ? beforeFree : afterFree).push_back(op);
  }
  // The first iteration's free also waited for what the function (and, in
  // a function other than main, its callers) issued before the loop.
  const clang::FunctionDecl *function = alloc.caller;
  if (!function->isMain())
    beforeLoop.push_back({Operation::Work, "", "work its callers issued before calling '" +
                                                   function->getNameAsString() + "'", {}});
  std::vector<const reach::CallSite *> earlier;
  for (const reach::CallSite &site : reach.calls())
    if (site.caller == function && site.expr &&
        sm.isBeforeInTranslationUnit(site.expr->getBeginLoc(), loop->getBeginLoc()))
      earlier.push_back(&site);
  llvm::sort(earlier, before);
  for (const reach::CallSite *site : earlier)
    beforeLoop.push_back(classify(*site, function->getBody(), context));

  std::vector<Operation> first, later;
  run(beforeLoop, first, sm);
  run(beforeFree, first, sm);
  run(afterFree, later, sm);
  run(beforeFree, later, sm);
  const std::vector<Operation> &pending = !later.empty() ? later : first;
  if (pending.empty())
    return "";
  std::string freeName(api::baseName(free.name));
  return freeName + " waits for all device work every iteration, and nothing else in the "
                    "loop waits for " +
         pending.front().what + " before it";
}

} // namespace streamlint
