// default-stream's fixes: the stream edit at a site, which calls of a
// function move together to which target (a stream in scope, or the
// per-thread default stream), and whether they keep every happens-before
// edge (analyzer/analysis/OrderingSafety.h; docs/fixes.md).
#include "checks/DefaultStreamCheck.h"
#include "checks/LegacyStreamMoves.h"
#include "analyzer/analysis/CallerOrdering.h"
#include "analyzer/analysis/OrderingSafety.h"
#include "analyzer/analysis/StreamOperations.h"
#include "api/CudaApiTable.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

namespace streamlint {

std::optional<TextEdit> DefaultStreamCheck::streamEdit(const clang::CallExpr &call,
                                                       const StreamArgumentSite &site,
                                                       const std::string &stream) const {
  return legacyStreamEdit(call, site, stream, context());
}

std::optional<MovedCall> DefaultStreamCheck::movedCall(const clang::CallExpr &call,
                                                       const clang::FunctionDecl &function,
                                                       const clang::VarDecl *target) {
  std::optional<LegacyStreamMove> move =
      legacyStreamMove(call, function, target, suggester_, context(), perThreadBuild_);
  if (!move)
    return std::nullopt;
  return move->moved;
}

const DefaultStreamCheck::GroupOrdering &
DefaultStreamCheck::orderingFor(const clang::FunctionDecl &function, const clang::VarDecl *target) {
  auto key = std::make_pair(&function, target);
  auto found = ordering_.find(key);
  if (found != ordering_.end())
    return found->second;
  GroupOrdering result;
  bool ptds = perThreadBuild_;
  FunctionOperations operations = operationsOf(function, context().ast(), ptds);
  // Per-thread only where no legacy-stream call has a stream of its own to
  // move to: two targets in one function are not judged together.
  if (!target && !suggester_.perThreadIsTarget(function, operations))
    return ordering_.emplace(key, std::move(result)).first->second;
  for (const StreamOperation &op : operations.operations) {
    result.usesStreams = result.usesStreams || usesStreamVariable(op);
    const auto *call = llvm::dyn_cast<clang::CallExpr>(op.node);
    if (call)
      if (std::optional<MovedCall> moved = movedCall(*call, function, target))
        result.group.push_back(*moved);
  }
  if (!target && result.usesStreams)
    choosePerThreadSubset(result, std::move(result.group));
  if (!target) {
    result.verdict = checkMoveToPerThreadStream(result.group, context());
    // Always the whole program's to decide: one host thread, streams created.
    if (!result.group.empty())
      result.conditional = perThreadConditional(
          function, /*narrow=*/false, [&](const OrderingAssumption &assume) {
            return checkMoveToPerThreadStream(result.group, context(), assume);
          });
    return ordering_.emplace(key, std::move(result)).first->second;
  }
  result.verdict = checkMoveToStream(result.group, *target, context(), ptds);
  if (!result.verdict.keepsOrdering && !result.group.empty())
    result.conditional = conditionalOrdering(
        function, *target, /*narrow=*/false, [&](const OrderingAssumption &assume) {
          return checkMoveToStream(result.group, *target, context(), ptds, assume);
        });
  return ordering_.emplace(key, std::move(result)).first->second;
}

void DefaultStreamCheck::choosePerThreadSubset(GroupOrdering &result,
                                               std::vector<MovedCall> candidates) {
  OrderingAssumption permissive;
  permissive.pending = ordering::NothingPending;
  permissive.next = ordering::NextWaits;
  result.group.clear();
  for (const MovedCall &candidate : candidates) {
    std::vector<MovedCall> tried = result.group;
    tried.push_back(candidate);
    OrderingVerdict verdict = checkMoveToPerThreadStream(tried, context(), permissive);
    if (verdict.keepsOrdering && verdict.waits.empty())
      result.group = std::move(tried);
    else
      result.leftOut[candidate.call] =
          verdict.keepsOrdering ? "moving it would need a wait for cudaStreamPerThread before " +
                                      verdict.waitNote + " (not inserted where '" +
                                      context().enclosingFunction(*candidate.call)->getNameAsString() +
                                      "' also uses streams)"
                                : verdict.brokenBy;
  }
}

void DefaultStreamCheck::perThreadFix(FixIt &fix, Finding &finding, const clang::CallExpr &call,
                                      const clang::FunctionDecl &function) {
  if (perThreadBuild_ || pyTorchSitesClaimed_)
    return;
  const GroupOrdering &ordering = orderingFor(function, nullptr);
  std::string name = "'" + function.getNameAsString() + "'";
  if (auto left = ordering.leftOut.find(&call); left != ordering.leftOut.end()) {
    fix.description = "pass cudaStreamPerThread, the per-thread default stream (no single "
                      "stream is in use in " + name + "); not applied by --fix: " + left->second;
    return;
  }
  if (llvm::none_of(ordering.group, [&](const MovedCall &m) { return m.call == &call; }))
    return;
  fix.description = ordering.usesStreams
                        ? "pass cudaStreamPerThread, the per-thread default stream: no single "
                          "stream is in use in " + name + ", and this work needs no other"
                        : "pass cudaStreamPerThread, the per-thread default stream: no single "
                          "stream is in use here (" + name + " uses no stream variable)";
  std::string before = fix.description;
  if (!ordering.conditional) {
    if (ordering.verdict.keepsOrdering)
      fix.description += "; not applied by --fix: the program's host threads and streams "
                         "could not be checked for this function";
    else
      applyOrderingVerdict(fix, ordering.verdict);
    fix.applicable = false;
    return;
  }
  carryGroup(fix, call, function, nullptr, ordering);
  fix.description += "; not applied by --fix: the whole program was not analyzed";
  recordConditionalFix(*ordering.conditional, finding, fix, std::move(before), context());
}

void DefaultStreamCheck::carryGroup(FixIt &fix, const clang::CallExpr &call,
                                    const clang::FunctionDecl &function,
                                    const clang::VarDecl *target, const GroupOrdering &ordering) {
  for (const MovedCall &member : ordering.group) {
    if (member.call == &call)
      continue;
    std::optional<LegacyStreamMove> move =
        legacyStreamMove(*member.call, function, target, suggester_, context(), perThreadBuild_);
    if (!move)
      continue;
    fix.edits.push_back(move->edit);
    const clang::FunctionDecl *callee = member.call->getDirectCallee();
    std::string what = llvm::isa<clang::CUDAKernelCallExpr>(member.call) ? "kernel launch"
                       : callee && callee->getIdentifier()            ? callee->getName().str()
                                                                      : "call";
    fix.prerequisites.push_back(
        {"default-stream", move->edit,
         "the " + what + " at " + describeLine(*member.call, function, context().sources())});
  }
}

void DefaultStreamCheck::addFix(Finding &finding, const clang::CallExpr &call,
                                const StreamArgumentSite &site, StreamKind kind) {
  const clang::FunctionDecl *function = context().enclosingFunction(call);
  std::optional<SuggestedStream> inScope =
      function ? suggester_.suggest(*function, call) : std::nullopt;
  std::optional<TextEdit> edit =
      streamEdit(call, site, inScope ? inScope->spelling : "cudaStreamPerThread");
  if (!edit)
    return;
  FixIt fix;
  fix.edits.push_back(std::move(*edit));
  if (!inScope) {
    fix.description = "no single stream is in use here to pass instead: pass a "
                      "stream you create, or cudaStreamPerThread";
    fix.applicable = false;
    if (function && kind != StreamKind::Legacy)
      perThreadFix(fix, finding, call, *function);
  } else if (kind == StreamKind::Legacy) {
    // cudaStreamLegacy is spelled out: the barrier may be intended.
    fix.description = "pass '" + inScope->spelling + "', " + inScope->evidence +
                      ", if the legacy stream's synchronization is not intended";
    fix.applicable = false;
  } else {
    fix.description = "pass '" + inScope->spelling + "', " + inScope->evidence;
    // Evidence from other functions only: advice to review, not an edit
    // --fix makes on its own.
    fix.applicable = inScope->usedByFunction;
    // Applied only if every happens-before edge the legacy stream gave is
    // kept, possibly with a wait inserted (docs/fixes.md). All the calls of
    // this function that move to the same stream are judged together.
    const auto *variable = llvm::dyn_cast_or_null<clang::VarDecl>(inScope->stream);
    if (fix.applicable && !variable) {
      fix.description += "; not applied by --fix: its ordering with the rest of the "
                         "function cannot be analyzed (not a local variable or parameter)";
      fix.applicable = false;
    }
    if (fix.applicable) {
      const GroupOrdering &ordering = orderingFor(*function, variable);
      carryGroup(fix, call, *function, variable, ordering);
      std::string before = fix.description;
      applyOrderingVerdict(fix, ordering.verdict);
      // Refused under rule 4 or an unknown target: the program's callers
      // may decide (analysis/OrderingSummary.h).
      if (ordering.conditional)
        recordConditionalFix(*ordering.conditional, finding, fix, std::move(before), context());
    }
  }
  finding.fixes.push_back(std::move(fix));
}

} // namespace streamlint
