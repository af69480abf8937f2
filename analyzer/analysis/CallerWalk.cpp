// CallerWalk.h: the walks over a caller's operations that the
// whole-program ordering facts record at each call and return.
#include "analyzer/analysis/CallerWalk.h"
#include "analyzer/analysis/OrderingSummary.h"
#include "analyzer/analysis/AnalysisScope.h"
#include "analyzer/analysis/SingleRunLoop.h"
#include "analyzer/analysis/StreamResolution.h"
#include "analyzer/analysis/StreamSources.h"
#include "analyzer/analysis/WaitLoopCover.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"

namespace streamlint {

using namespace ordering;

namespace {
std::string named(const StreamOperation &op) { return "the " + op.what; }
} // namespace

const clang::Stmt *CallerWalk::everyIterationWaits(const StreamOperation &wait) const {
  // The wait is in a loop the walk started outside of, directly in its body
  // (no branch around it), and every iteration that starts reaches it.
  if (wait.loops.empty() || llvm::is_contained(ops_[at_].loops, wait.loops.front()))
    return nullptr;
  const clang::Stmt *loop = wait.loops.front();
  std::vector<const clang::Stmt *> extra;
  for (const clang::Stmt *condition : wait.conditions)
    if (!llvm::is_contained(ops_[at_].conditions, condition))
      extra.push_back(condition);
  if (extra.size() != 1 || extra.front() != loop || escapes(loopBodyOf(loop)) /* a break or continue of this loop, a goto */)
    return nullptr;
  return loop;
}

CallerWalk::CallerWalk(const FunctionOperations &ops, size_t at,
                       const std::vector<std::string> &userCalls,
                       std::map<const clang::Decl *, int> passed)
    : ops_(ops.operations), function_(ops.function), at_(at), userCalls_(userCalls), passed_(std::move(passed)) {
  const StreamOperation &call = ops_[at];
  if (!call.loops.empty()) {
    const clang::Stmt *outer = call.loops.back();
    outerLoop_ = outer;
    for (size_t i = 0; i < ops_.size(); ++i)
      if (llvm::is_contained(ops_[i].loops, outer)) {
        lo_ = lo_ ? lo_ : i;
        hi_ = i;
      }
  }
}

CallerWalk::Result CallerWalk::pending(bool narrow) const {
  std::vector<size_t> back;
  for (size_t i = at_; i > 0; --i)
    back.push_back(i - 1);
  Result result = walkBack(back, narrow, /*wrapped=*/false);
  if (lo_) {
    std::vector<size_t> previous;
    for (size_t i = at_; i > *lo_; --i)
      previous.push_back(i - 1);
    for (size_t i = hi_ + 1; i > at_; --i)
      previous.push_back(i - 1);
    merge(result, walkBack(previous, narrow, /*wrapped=*/true));
  }
  return result;
}

CallerWalk::Result CallerWalk::next(size_t from) const { return next(from, nullptr); }

CallerWalk::Result CallerWalk::next(size_t from, const clang::Decl *target) const {
  std::vector<size_t> after;
  for (size_t i = from; i < ops_.size(); ++i)
    after.push_back(i);
  Result result = walkForward(after, target);
  if (lo_) {
    std::vector<size_t> again;
    for (size_t i = at_ + 1; i <= hi_; ++i)
      again.push_back(i);
    for (size_t i = *lo_; i <= at_; ++i)
      again.push_back(i);
    // Round the loop, the variable must name the same stream again.
    Result round = walkForward(again, target && sameEveryIteration(target) ? target : nullptr);
    round.reachesEnd = false;
    merge(result, round);
  }
  return result;
}

std::vector<OrderedCall::NextOnParameter> CallerWalk::nextOnParameters(size_t from,
                                                                      const Result &general) const {
  std::vector<OrderedCall::NextOnParameter> variants;
  for (const auto &[variable, parameter] : passed_) {
    Result on = next(from, variable);
    if (on.level == general.level && on.reachesEnd == general.reachesEnd &&
        on.calls == general.calls && on.callsOnParameters.empty())
      continue;
    OrderedCall::NextOnParameter variant;
    variant.parameter = parameter;
    variant.level = on.level;
    variant.reachesReturn = on.reachesEnd;
    variant.what = on.what;
    variant.calls = on.calls;
    variant.callsOnParameter = on.callsOnParameters;
    variants.push_back(std::move(variant));
  }
  return variants;
}

void CallerWalk::merge(Result &into, Result other) {
  if (other.level > into.level) {
    into.level = other.level;
    into.levelOp = other.levelOp;
    into.what = other.what;
  }
  into.reachesEnd = into.reachesEnd || other.reachesEnd;
  for (ordering::OrderedCall::CallOnParameter passed : other.callsOnParameters) {
    passed.position += int(into.calls.size());
    into.callsOnParameters.push_back(passed);
  }
  into.calls.insert(into.calls.end(), other.calls.begin(), other.calls.end());
  into.onParameters.insert(into.onParameters.end(), other.onParameters.begin(),
                           other.onParameters.end());
  into.coveredCalls.insert(into.coveredCalls.end(), other.coveredCalls.begin(),
                           other.coveredCalls.end());
  into.blockingOnly = into.blockingOnly && other.blockingOnly;
}

bool CallerWalk::unconditional(const StreamOperation &op) const {
  return llvm::all_of(op.conditions, [&](const clang::Stmt *condition) {
    return llvm::is_contained(ops_[at_].conditions, condition);
  });
}

CallerWalk::Result CallerWalk::walkBack(const std::vector<size_t> &path, bool narrow,
                                         bool wrapped) const {
  Result result;
  std::vector<OrderingStream> waited;
  bool legacyDone = false; // a later legacy copy to the host covered blocking work
  auto raise = [&](unsigned to, const StreamOperation &op) {
    if (op.effect != OperationEffect::Enqueue || op.blocking != StreamBlocking::Blocking)
      result.blockingOnly = false;
    if (to > result.level) {
      result.level = to;
      result.levelOp = &op;
      result.what = named(op) + " (not waited for)";
    }
  };
  const clang::Stmt *skipLoop = nullptr;
  std::vector<std::pair<const clang::Stmt *, OrderingStream>> waitedInLoop;
  std::vector<size_t> waitLoops; // cudaStreamSynchronize(a[j]) in a loop over j, walked
  for (size_t index : path) {
    const StreamOperation &op = ops_[index];
    if (skipLoop && llvm::is_contained(op.loops, skipLoop))
      continue;
    skipLoop = nullptr;
    if (neverBefore(op, ops_[at_]))
      continue; // its branch ends the program
    bool always = unconditional(op);
    switch (op.effect) {
    case OperationEffect::Neutral:
    case OperationEffect::Return:
      break;
    case OperationEffect::HostWaitsAll:
      if (always)
        return result;
      // Walked back into a loop whose every iteration ends waiting for the
      // device: what the loop issued before the wait is done (after the last
      // iteration); what it issued after the wait was walked already. What
      // comes before the loop is not (the loop may not run).
      if (const clang::Stmt *loop = everyIterationWaits(op))
        skipLoop = loop;
      break;
    case OperationEffect::HostWaitsStream:
      if (always)
        waited.push_back(op.stream);
      // The same for a wait for one stream: the loop's work on it is done.
      else if (const clang::Stmt *loop = everyIterationWaits(op); loop && !op.recordedBy)
        waitedInLoop.push_back({loop, op.stream});
      // A wait loop over an array of streams the walk started outside of:
      // it covers an earlier loop with the same header (WaitLoopCover.h).
      else if (const clang::ForStmt *over = streamArrayLoop(op);
               over && function_ && !llvm::is_contained(ops_[at_].loops, over))
        waitLoops.push_back(index);
      break;
    case OperationEffect::Enqueue: {
      if (llvm::any_of(waited, [&](const OrderingStream &s) { return s.same(op.stream); }))
        break;
      if (llvm::any_of(waitedInLoop, [&](const std::pair<const clang::Stmt *, OrderingStream> &w) {
            return llvm::is_contained(op.loops, w.first) && w.second.same(op.stream);
          }))
        break;
      if (const clang::ForStmt *issuing = streamArrayLoop(op);
          issuing && !llvm::is_contained(ops_[at_].loops, issuing) &&
          llvm::any_of(waitLoops, [&](size_t w) {
            return waitLoopCovers(ops_[w], op, *function_);
          }))
        break;
      bool legacy = op.stream.kind == OrderingStream::Legacy;
      if (legacyDone && (legacy || op.blocking == StreamBlocking::Blocking))
        break;
      if (!narrow && !legacy && op.blocking == StreamBlocking::NonBlocking)
        break; // the legacy stream never waited for it
      if (op.stream.kind == OrderingStream::Variable &&
          (!wrapped || sameEveryIteration(op.stream.variable))) {
        auto passed = passed_.find(op.stream.variable);
        if (passed != passed_.end()) {
          result.onParameters.push_back(passed->second);
          break;
        }
      }
      if (legacy && op.hostWaits && always) {
        // Done when the call returns, after all earlier blocking work.
        if (!narrow)
          return result;
        legacyDone = true;
        break;
      }
      raise(legacy ? LegacyPending : OtherPending, op);
      break;
    }
    case OperationEffect::Opaque:
      if (!userCalls_[index].empty() && !legacyDone) {
        if (std::optional<ordering::OrderedCall::CallOnParameter> passed =
                passedAlong(index, nullptr, wrapped)) {
          passed->position = int(result.calls.size());
          result.callsOnParameters.push_back(*passed);
        }
        result.calls.push_back(userCalls_[index]);
      }
      else if (!userCalls_[index].empty() && narrow)
        result.coveredCalls.push_back(userCalls_[index]);
      else if (!(legacyDone && !narrow))
        raise(OtherPending, op);
      break;
    }
  }
  result.reachesEnd = true;
  return result;
}

CallerWalk::Result CallerWalk::walkForward(const std::vector<size_t> &path,
                                            const clang::Decl *target) const {
  Result result;
  for (size_t index : path) {
    const StreamOperation &op = ops_[index];
    bool always = unconditional(op);
    bool onTarget = target && op.stream.kind == OrderingStream::Variable &&
                    op.stream.variable == target;
    // Work on the moved work's stream runs after it; a wait for that
    // stream waits for it, as a wait for the device would.
    if (onTarget && op.effect == OperationEffect::Enqueue)
      continue;
    if (onTarget && op.effect == OperationEffect::HostWaitsStream && !op.recordedBy) {
      if (always)
        return result;
      continue;
    }
    switch (op.effect) {
    case OperationEffect::Neutral:
      break;
    case OperationEffect::HostWaitsAll:
      if (always)
        return result;
      break;
    case OperationEffect::HostWaitsStream:
      if (op.stream.kind == OrderingStream::Legacy) {
        result.what = named(op);
        result.level = NextDepends;
        return result;
      }
      break;
    case OperationEffect::Enqueue:
      if (op.stream.kind == OrderingStream::Legacy) {
        if (result.level < NextLegacyWork) {
          result.level = NextLegacyWork;
          result.what = named(op) + " on the legacy stream";
        }
        if (always)
          return result;
        break;
      }
      if (op.blocking == StreamBlocking::NonBlocking)
        break;
      result.what = named(op);
      result.level = NextDepends;
      return result;
    case OperationEffect::Opaque:
      if (!userCalls_[index].empty()) {
        if (target)
          if (std::optional<ordering::OrderedCall::CallOnParameter> passed =
                  passedAlong(index, target, /*wrapped=*/false)) {
            passed->position = int(result.calls.size());
            result.callsOnParameters.push_back(*passed);
          }
        result.calls.push_back(userCalls_[index]);
        break;
      }
      result.what = named(op);
      result.level = NextDepends;
      return result;
    case OperationEffect::Return:
      result.reachesEnd = true;
      return result;
    }
  }
  return result;
}

namespace {

/// The variable `argument` names (canonical), or null.
const clang::Decl *namedVariable(const clang::Expr *argument) {
  const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(argument->IgnoreParenImpCasts());
  return ref ? ref->getDecl()->getCanonicalDecl() : nullptr;
}

/// The arguments of the user call `op` by its callee's parameter index;
/// empty for an operator call (its object is an argument).
std::vector<const clang::Expr *> argumentsByParameter(const StreamOperation &op) {
  const auto *call = llvm::dyn_cast_or_null<clang::CallExpr>(op.node);
  if (!call || llvm::isa<clang::CXXOperatorCallExpr>(call))
    return {};
  return std::vector<const clang::Expr *>(call->arg_begin(), call->arg_end());
}

} // namespace

std::optional<ordering::OrderedCall::CallOnParameter>
CallerWalk::passedAlong(size_t index, const clang::Decl *target, bool wrapped) const {
  std::vector<const clang::Expr *> arguments = argumentsByParameter(ops_[index]);
  for (size_t i = 0; i < arguments.size(); ++i) {
    const clang::Decl *variable = namedVariable(arguments[i]);
    if (!variable || (target && variable != target) ||
        (wrapped && !sameEveryIteration(variable)))
      continue;
    auto passed = passed_.find(variable);
    if (passed == passed_.end())
      continue;
    ordering::OrderedCall::CallOnParameter along;
    along.calleeParameter = int(i);
    along.parameter = passed->second;
    return along;
  }
  return std::nullopt;
}

namespace {

/// `variable` is declared, assigned, or has its address or a non-const
/// reference to it taken, in `scope`.
bool writtenIn(const clang::Stmt &scope, const clang::Decl *variable) {
  struct Finder : clang::RecursiveASTVisitor<Finder> {
    const clang::Decl *variable;
    bool found = false;
    bool names(const clang::Expr *expr) const {
      const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(expr->IgnoreParenImpCasts());
      return ref && ref->getDecl()->getCanonicalDecl() == variable;
    }
    bool VisitBinaryOperator(clang::BinaryOperator *op) {
      found = found || (op->isAssignmentOp() && names(op->getLHS()));
      return !found;
    }
    bool VisitUnaryOperator(clang::UnaryOperator *op) {
      found = found || (op->getOpcode() == clang::UO_AddrOf && names(op->getSubExpr()));
      return !found;
    }
    bool VisitVarDecl(clang::VarDecl *var) {
      found = found || var->getCanonicalDecl() == variable ||
              (var->getType()->isReferenceType() && var->getInit() &&
               !var->getType().getNonReferenceType().isConstQualified() &&
               names(var->getInit()));
      return !found;
    }
  } finder;
  finder.variable = variable;
  finder.TraverseStmt(const_cast<clang::Stmt *>(&scope));
  return finder.found;
}

/// `parameter` is assigned, or its address or a reference to it taken, in
/// `function`: its work may be on another stream than the caller passed.
bool reassigned(const clang::FunctionDecl &function, const clang::ParmVarDecl &parameter) {
  return function.hasBody() && writtenIn(*function.getBody(), &parameter);
}

} // namespace

bool CallerWalk::sameEveryIteration(const clang::Decl *variable) const {
  return !outerLoop_ || !writtenIn(*outerLoop_, variable);
}

int onlyStreamParameter(const clang::FunctionDecl &function,
                        const std::vector<StreamOperation> &ops) {
  if (llvm::all_of(ops, [](const StreamOperation &op) {
        return op.effect == OperationEffect::Neutral || op.effect == OperationEffect::Return;
      }))
    return ordering::NoDeviceWork;
  int only = -1;
  for (const StreamOperation &op : ops) {
    if (op.effect == OperationEffect::Neutral || op.effect == OperationEffect::Return ||
        op.effect == OperationEffect::HostWaitsAll)
      continue;
    if (op.effect == OperationEffect::Opaque || op.stream.kind != OrderingStream::Variable)
      return -1;
    const auto *parameter = llvm::dyn_cast_or_null<clang::ParmVarDecl>(op.stream.variable);
    const auto *owner = parameter ? llvm::dyn_cast<clang::FunctionDecl>(parameter->getDeclContext()) : nullptr;
    if (!owner || owner->getCanonicalDecl() != function.getCanonicalDecl())
      return -1;
    int index = int(parameter->getFunctionScopeIndex());
    if ((only != -1 && only != index) || reassigned(function, *parameter))
      return -1;
    only = index;
  }
  return only;
}

std::vector<std::string> userCallKeys(const std::vector<StreamOperation> &ops) {
  std::vector<std::string> keys;
  for (const StreamOperation &op : ops) {
    std::string key;
    if (op.effect == OperationEffect::Opaque && llvm::StringRef(op.what).starts_with("call of '"))
      if (const auto *call = llvm::dyn_cast<clang::CallExpr>(op.node))
        if (const clang::FunctionDecl *callee = call->getDirectCallee())
          if ((!llvm::isa<clang::CXXMethodDecl>(callee) ||
               !llvm::cast<clang::CXXMethodDecl>(callee)->isVirtual()) &&
              // A library function handed code of the program
              // (std::for_each(..., lambda)) is not the program's.
              !isLibraryFunction(*callee, callee->getASTContext().getSourceManager()))
            key = orderingKey(*callee);
    keys.push_back(std::move(key));
  }
  return keys;
}

int onlyStreamParameterIfCallees(const clang::FunctionDecl &function,
                                 const std::vector<StreamOperation> &ops,
                                 const std::vector<std::string> &userCalls,
                                 std::vector<std::pair<std::string, int>> &calls) {
  calls.clear();
  int only = ordering::NoDeviceWork;
  std::map<const clang::ParmVarDecl *, bool> written; // reassigned(), once per parameter
  // The parameter `op`'s work, or the stream it passes along, is on.
  auto settle = [&](const clang::ParmVarDecl *parameter) {
    const auto *owner =
        parameter ? llvm::dyn_cast<clang::FunctionDecl>(parameter->getDeclContext()) : nullptr;
    if (!owner || owner->getCanonicalDecl() != function.getCanonicalDecl())
      return false;
    auto [known, inserted] = written.try_emplace(parameter, false);
    if (inserted)
      known->second = reassigned(function, *parameter);
    if (known->second)
      return false;
    int index = int(parameter->getFunctionScopeIndex());
    if (only != ordering::NoDeviceWork && only != index)
      return false;
    only = index;
    return true;
  };
  for (size_t i = 0; i < ops.size(); ++i) {
    const StreamOperation &op = ops[i];
    if (op.effect == OperationEffect::Neutral || op.effect == OperationEffect::Return ||
        op.effect == OperationEffect::HostWaitsAll)
      continue;
    if (op.effect == OperationEffect::Opaque) {
      if (i >= userCalls.size() || userCalls[i].empty())
        return -1;
      const auto *call = llvm::dyn_cast_or_null<clang::CallExpr>(op.node);
      if (!call || llvm::isa<clang::CXXOperatorCallExpr>(call))
        return -1;
      int passedFor = -1;
      for (unsigned a = 0; a < call->getNumArgs(); ++a) {
        const auto *parameter = llvm::dyn_cast_or_null<clang::ParmVarDecl>(
            namedVariable(call->getArg(a)));
        if (!parameter || !isStreamType(parameter->getType()))
          continue;
        if (passedFor != -1 || !settle(parameter))
          return -1; // two stream parameters passed, or another than its own work's
        passedFor = int(a);
      }
      calls.push_back({userCalls[i], passedFor});
      continue;
    }
    if (op.stream.kind != OrderingStream::Variable ||
        !settle(llvm::dyn_cast_or_null<clang::ParmVarDecl>(op.stream.variable)))
      return -1;
  }
  return only;
}

} // namespace streamlint
