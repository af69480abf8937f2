// What a TU tells the whole-program ordering pass (OrderingSummary.h): for
// each call of a user function, the caller's operations before and after it
// (StreamOperations, walked like OrderingSafety walks the callee's), its
// stream arguments; each function's openness; each global or member stream
// write.
#include "analyzer/analysis/CallerOrdering.h"
#include "analyzer/analysis/AnalysisScope.h"
#include "analyzer/analysis/CallerWalk.h"
#include "analyzer/analysis/DeviceLoop.h"
#include "analyzer/analysis/HostThreads.h"
#include "analyzer/analysis/OrderingScope.h"
#include "analyzer/analysis/StreamSources.h"
#include "analyzer/analysis/StreamResolution.h"
#include "api/CudaApiTable.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <set>

namespace streamlint {

using namespace ordering;

namespace {

bool inSystemHeader(const clang::SourceManager &sm, clang::SourceLocation location) {
  return location.isValid() && sm.isInSystemHeader(sm.getExpansionLoc(location));
}

bool deviceOnly(const clang::FunctionDecl &function) {
  return function.hasAttr<clang::CUDAGlobalAttr>() ||
         (function.hasAttr<clang::CUDADeviceAttr>() && !function.hasAttr<clang::CUDAHostAttr>());
}

/// One pass over the TU's host functions.
class FactsCollector : public clang::RecursiveASTVisitor<FactsCollector> {
  using Base = clang::RecursiveASTVisitor<FactsCollector>;

public:
  FactsCollector(TranslationUnitContext &context, bool libraryTarget, OrderingFacts &facts)
      : context_(context), ast_(context.ast()), sm_(context.ast().getSourceManager()),
        facts_(facts), libraryTarget_(libraryTarget) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(clang::Decl *decl) {
    if (!decl)
      return true;
    if (!llvm::isa<clang::TranslationUnitDecl>(decl) && inSystemHeader(sm_, decl->getLocation()))
      return true;
    auto *function = llvm::dyn_cast<clang::FunctionDecl>(decl);
    if (!function || !function->doesThisDeclarationHaveABody() || function->isDependentContext())
      return Base::TraverseDecl(decl);
    if (deviceOnly(*function))
      return true;
    enter(*function, openBecause(*function));
    bool result = Base::TraverseDecl(decl);
    frames_.pop_back();
    return result;
  }
  bool TraverseLambdaExpr(clang::LambdaExpr *lambda) {
    enter(*lambda->getCallOperator(), "it is a lambda, called wherever it is passed");
    bool result = Base::TraverseLambdaExpr(lambda);
    frames_.pop_back();
    return result;
  }

  bool VisitCallExpr(clang::CallExpr *call) {
    if (frames_.empty()) {
      noteStartupCall(*call);
      return true;
    }
    const clang::FunctionDecl *callee = call->getDirectCallee();
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(call->getCallee()->IgnoreParenImpCasts()))
      callees_.insert(ref);
    if (!callee)
      return true;
    if (callee->getIdentifier())
      if (const api::ApiInfo *row = api::findApi(callee->getName());
          row && row->lifecycle == api::StreamLifecycle::Creates) {
        noteOnce(facts_.streamCreations, callee->getName().str(), call->getBeginLoc());
        noteEvent(facts_.streamCreators, callee->getName().str(), call->getBeginLoc());
        noteCreation(*call, *row);
        return true;
      }
    if (startsHostThread(*callee)) {
      noteOnce(facts_.hostThreads, callee->getQualifiedNameAsString(), call->getBeginLoc());
      noteEvent(facts_.threadStarters, callee->getQualifiedNameAsString(), call->getBeginLoc());
    }
    if (isLibraryFunction(*callee, sm_) || deviceOnly(*callee))
      return true;
    calls_.push_back({frames_.back(), call});
    // A global or member stream handed by address to a user function may
    // be written there in a way this pass does not follow.
    for (const clang::Expr *argument : call->arguments())
      if (const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(argument->IgnoreParenImpCasts()))
        if (unary->getOpcode() == clang::UO_AddrOf)
          if (const clang::ValueDecl *stream = writtenStream(unary))
            write(*stream, unknown(stream->getNameAsString()));
    return true;
  }
  bool VisitCXXConstructExpr(clang::CXXConstructExpr *construct) {
    if (std::string name = threadConstructed(*construct); !name.empty()) {
      noteOnce(facts_.hostThreads, name, construct->getBeginLoc());
      noteEvent(facts_.threadStarters, name, construct->getBeginLoc());
    }
    return true;
  }
  bool VisitOMPExecutableDirective(clang::OMPExecutableDirective *directive) {
    if (openMpMayRunCuda(*directive, sm_)) {
      noteOnce(facts_.hostThreads, "an OpenMP directive", directive->getBeginLoc());
      noteEvent(facts_.threadStarters, "an OpenMP directive", directive->getBeginLoc());
    }
    return true;
  }
  bool VisitDeclRefExpr(clang::DeclRefExpr *ref) {
    if (const auto *function = llvm::dyn_cast<clang::FunctionDecl>(ref->getDecl()))
      if (!callees_.count(ref) && !inSystemHeader(sm_, function->getLocation()))
        if (std::string key = orderingKey(*function); !key.empty()) {
          facts_.addressTaken.push_back(key);
          facts_.addressTakers.push_back(
              {key, frames_.empty() ? std::string() : orderingKey(*frames_.back())});
        }
    return true;
  }
  bool VisitBinaryOperator(clang::BinaryOperator *op) {
    if (op->getOpcode() != clang::BO_Assign || frames_.empty())
      return true;
    if (const clang::ValueDecl *stream = writtenStream(op->getLHS()))
      if (!isNull(op->getRHS()))
        write(*stream, sourceOf(op->getRHS(), *frames_.back(), ast_));
    return true;
  }
  bool VisitVarDecl(clang::VarDecl *var) {
    if (!var->hasGlobalStorage() || !isStreamType(var->getType()) || !var->isThisDeclarationADefinition())
      return true;
    if (libraryTarget_ && var->isExternallyVisible())
      write(*var, unknown(var->getNameAsString()));
    else if (var->getInit() && !isNull(var->getInit()))
      write(*var, unknown(var->getNameAsString()));
    return true;
  }
  bool VisitCXXConstructorDecl(clang::CXXConstructorDecl *constructor) {
    for (const clang::CXXCtorInitializer *init : constructor->inits())
      if (const clang::FieldDecl *field = init->getMember())
        if (isStreamType(field->getType()) && init->getInit() && init->isWritten() &&
            !isNull(init->getInit()))
          write(*field, sourceOf(init->getInit(), *constructor, ast_));
    return true;
  }

  /// The call sites' and functions' facts, once the whole TU was visited:
  /// only those the whole-program pass can read (OrderingScope.h).
  void finish() {
    std::set<std::string> openHere, named;
    for (const OrderedFunction &function : facts_.functions)
      if (!function.openBecause.empty())
        openHere.insert(function.usr);
    for (const auto &[caller, call] : calls_) {
      const clang::FunctionDecl *callee = call->getDirectCallee();
      OrderedCall facts;
      facts.callee = orderingKey(*callee);
      if (facts.callee.empty() || openHere.count(facts.callee) ||
          !openInEveryTranslationUnit(*callee).empty())
        continue;
      facts.caller = orderingKey(*caller);
      if (facts.caller.empty())
        continue;
      facts.callerName = caller->getNameAsString();
      facts.site = context_.point(call->getBeginLoc());
      const Operations &operations = operationsFor(*caller);
      const std::vector<StreamOperation> &ops = operations.ops.operations;
      unsigned offset = llvm::isa<clang::CXXOperatorCallExpr>(call) &&
                                llvm::isa<clang::CXXMethodDecl>(callee)
                            ? 1
                            : 0;
      std::map<const clang::Decl *, int> passed;
      for (unsigned i = 0; i < callee->getNumParams(); ++i)
        if (isStreamType(callee->getParamDecl(i)->getType()) && i + offset < call->getNumArgs()) {
          const clang::Expr *argument = call->getArg(i + offset);
          facts.streams[int(i)] = sourceOf(argument, *caller, ast_);
          StreamClassification stream = classifyStreamArgument(argument, ast_, caller);
          if (stream.kind == StreamKind::Named && stream.variable)
            passed[stream.variable->getCanonicalDecl()] = int(i);
        }
      for (size_t i = 0; i < ops.size(); ++i)
        if (ops[i].node == call) {
          CallerWalk walk(operations.ops, i, operations.userCalls, passed);
          CallerWalk::Result move = walk.pending(false), narrow = walk.pending(true);
          facts.pendingMove = move.level;
          facts.pendingNarrow = narrow.level;
          facts.pendingWhat = move.level >= narrow.level ? move.what : narrow.what;
          facts.pendingReachesEntry = move.reachesEnd || narrow.reachesEnd;
          facts.pendingCalls = move.calls;
          facts.pendingCallsOnParameters = move.callsOnParameters;
          for (OrderedCall::CallOnParameter passedAlong : narrow.callsOnParameters) {
            passedAlong.position += int(move.calls.size());
            facts.pendingCallsOnParameters.push_back(passedAlong);
          }
          facts.pendingCalls.insert(facts.pendingCalls.end(), narrow.calls.begin(),
                                    narrow.calls.end());
          CallerWalk::Result after = walk.next(i + 1);
          facts.next = after.level;
          facts.nextReachesReturn = after.reachesEnd;
          facts.nextWhat = after.what;
          facts.nextCalls = after.calls;
          facts.nextOnParameters = walk.nextOnParameters(i + 1, after);
          for (const OrderedCall::NextOnParameter &variant : facts.nextOnParameters)
            named.insert(variant.calls.begin(), variant.calls.end());
          facts.coveredCalls = narrow.coveredCalls;
          // On another device the legacy stream waits for none of the
          // callee's work: a caller that selects devices covers nothing.
          if (!facts.coveredCalls.empty() && selectsDevices(*caller)) {
            facts.coveredCalls.clear();
            facts.pendingNarrow = OtherPending;
            facts.pendingWhat = "a call of a user function (the caller selects devices, so its "
                                "synchronous copy to the host may not have waited for that work)";
          }
          facts.pendingOnParameters = move.onParameters;
          facts.pendingOnParameters.insert(facts.pendingOnParameters.end(),
                                           narrow.onParameters.begin(), narrow.onParameters.end());
        }
      // (A call not among the operations does no CUDA work: it keeps the
      // conservative levels; no fix depends on its callee's callers.)
      for (const std::vector<std::string> *list :
           {&facts.pendingCalls, &facts.nextCalls, &facts.coveredCalls})
        named.insert(list->begin(), list->end());
      facts_.calls.push_back(std::move(facts));
    }
    for (const ConditionalFix &fix : facts_.fixes) {
      for (const auto &[callee, parameter] : fix.calleesOnTarget)
        named.insert(callee);
      // The calls a fix's walk went over, judged by their callees'
      // summaries (CalleeLeaves.h).
      for (const ConditionalFix::Case &one : fix.casesIfCalleesLeave) {
        for (const auto &[callee, parameter] : one.onTarget)
          named.insert(callee);
        for (const CalleeNeed &need : one.needs)
          named.insert(need.callee);
      }
    }
    summarizeNamed(std::move(named));
  }

private:
  void enter(const clang::FunctionDecl &function, std::string open) {
    frames_.push_back(&function);
    std::string key = orderingKey(function);
    if (key.empty() || functionIndex_.count(&function))
      return;
    functionIndex_[&function] = facts_.functions.size();
    OrderedFunction facts;
    facts.usr = key;
    facts.name = function.getNameAsString();
    facts.isMain = function.isMain();
    facts.definedAt = definitionPlace(function, sm_);
    facts.openBecause = std::move(open);
    facts_.functions.push_back(std::move(facts));
  }

  /// Summarizes the functions `named` names, those their summaries name,
  /// and those a TU may call without holding their body; the others keep
  /// their identity only (OrderedFunction::summarized false).
  void summarizeNamed(std::set<std::string> named) {
    std::map<std::string, std::vector<const clang::FunctionDecl *>> byKey;
    std::vector<std::string> pending(named.begin(), named.end());
    for (auto &[function, index] : functionIndex_) {
      byKey[facts_.functions[index].usr].push_back(function);
      facts_.functions[index].summarized = false;
      if (mayBeCalledWithoutItsBody(*function) && named.insert(facts_.functions[index].usr).second)
        pending.push_back(facts_.functions[index].usr);
    }
    while (!pending.empty()) {
      std::string key = std::move(pending.back());
      pending.pop_back();
      auto found = byKey.find(key);
      if (found == byKey.end())
        continue;
      for (const clang::FunctionDecl *function : found->second) {
        OrderedFunction &facts = facts_.functions[functionIndex_[function]];
        summarize(*function, facts);
        facts.summarized = true;
        for (const std::vector<std::string> *list :
             {&facts.leavesCalls, &facts.leavesCoveredCalls, &facts.firstCalls})
          for (const std::string &callee : *list)
            if (named.insert(callee).second)
              pending.push_back(callee);
        for (const auto &[callee, parameter] : facts.onlyParameterCalls)
          if (named.insert(callee).second)
            pending.push_back(callee);
      }
    }
  }

  struct Operations {
    FunctionOperations ops;
    std::vector<std::string> userCalls; ///< per operation: the user callee's key, or ""
  };
  const Operations &operationsFor(const clang::FunctionDecl &function) {
    auto found = operations_.find(&function);
    if (found != operations_.end())
      return found->second;
    Operations result;
    result.ops = operationsOf(function, ast_, context_.info().perThreadDefaultStream);
    result.userCalls = userCallKeys(result.ops.operations);
    return operations_.emplace(&function, std::move(result)).first->second;
  }

  /// What the function leaves pending at each return, and does first.
  void summarize(const clang::FunctionDecl &function, OrderedFunction &facts) {
    if (!function.hasBody())
      return;
    const Operations &operations = operationsFor(function);
    const std::vector<StreamOperation> &ops = operations.ops.operations;
    facts.leavesMove = facts.leavesNarrow = NothingPending;
    facts.leavesCalls.clear();
    facts.leavesCoveredCalls.clear();
    facts.leavesBlockingOnly = true;
    for (size_t i = 0; i < ops.size(); ++i) {
      if (ops[i].effect != OperationEffect::Return)
        continue;
      CallerWalk walk(operations.ops, i, operations.userCalls);
      CallerWalk::Result move = walk.pending(false), narrow = walk.pending(true);
      facts.leavesMove = std::max(facts.leavesMove, move.level);
      if (narrow.level > facts.leavesNarrow && narrow.levelOp)
        facts.leavesWhat = "the " + narrow.levelOp->what + " at " + fileLine(*narrow.levelOp->node) +
                           streamWords(*narrow.levelOp);
      facts.leavesNarrow = std::max(facts.leavesNarrow, narrow.level);
      facts.leavesCalls.insert(facts.leavesCalls.end(), move.calls.begin(), move.calls.end());
      facts.leavesCalls.insert(facts.leavesCalls.end(), narrow.calls.begin(), narrow.calls.end());
      facts.leavesCoveredCalls.insert(facts.leavesCoveredCalls.end(), narrow.coveredCalls.begin(),
                                      narrow.coveredCalls.end());
      facts.leavesBlockingOnly = facts.leavesBlockingOnly && narrow.blockingOnly;
    }
    facts.selectsDevice = selectsDevices(function);
    if (facts.selectsDevice)
      facts.leavesBlockingOnly = false; // its work may be on another device than the caller's
    // From the entry: the walk from the function's end (no branch around it).
    CallerWalk walk(operations.ops, ops.size() - 1, operations.userCalls);
    CallerWalk::Result first = walk.next(0);
    facts.first = first.level;
    facts.firstDecides = !first.reachesEnd;
    facts.firstCalls = first.calls;
    facts.onlyParameter = onlyStreamParameter(function, ops);
    facts.onlyParameterCalls.clear();
    facts.onlyParameterIfCallees = -1;
    if (facts.onlyParameter == -1) {
      facts.onlyParameterIfCallees =
          onlyStreamParameterIfCallees(function, ops, operations.userCalls, facts.onlyParameterCalls);
      if (facts.onlyParameterIfCallees == -1)
        facts.onlyParameterCalls.clear();
    }
  }

  /// "kernels.cu:17"
  std::string fileLine(const clang::Stmt &node) const {
    SourcePoint point = context_.point(node.getBeginLoc());
    return llvm::sys::path::filename(point.file).str() + ":" + std::to_string(point.line);
  }

  /// " (legacy stream)", " (stream 's')", ...: where `op`'s work is.
  static std::string streamWords(const StreamOperation &op) {
    if (op.effect != OperationEffect::Enqueue)
      return "";
    const auto *named = llvm::dyn_cast_or_null<clang::NamedDecl>(op.stream.variable);
    switch (op.stream.kind) {
    case OrderingStream::Legacy: return " (legacy stream)";
    case OrderingStream::PerThread: return " (per-thread stream)";
    case OrderingStream::Variable:
      return named ? " (stream '" + named->getNameAsString() + "')" : "";
    case OrderingStream::Unknown: return " (unknown stream)";
    }
    return "";
  }

  std::string openBecause(const clang::FunctionDecl &function) const {
    return streamlint::openBecause(function, libraryTarget_);
  }

  bool isNull(const clang::Expr *value) const {
    return value->IgnoreParenCasts()->isNullPointerConstant(
        ast_, clang::Expr::NPC_ValueDependentIsNotNull);
  }

  static StreamSource unknown(std::string spelled) {
    StreamSource source;
    source.spelled = std::move(spelled);
    return source;
  }

  /// `what at file:line` in `list`, once per TU.
  void noteOnce(std::vector<std::string> &list, std::string what, clang::SourceLocation at) {
    if (noted_.count(&list))
      return;
    noted_.insert(&list);
    SourcePoint point = context_.point(at);
    list.push_back(what + " at " + llvm::sys::path::filename(point.file).str() + ":" +
                   std::to_string(point.line));
  }

  /// `what at file:line` in `list` with the function it is in (outside
  /// any: ""), once per function.
  void noteEvent(std::vector<ProgramEvent> &list, std::string what, clang::SourceLocation at) {
    std::string function = frames_.empty() ? "" : orderingKey(*frames_.back());
    if (!notedIn_.insert({&list, function}).second)
      return;
    SourcePoint point = context_.point(at);
    list.push_back({what + " at " + llvm::sys::path::filename(point.file).str() + ":" +
                        std::to_string(point.line),
                    std::move(function)});
  }

  /// A call outside any function (a global's initializer, a member's
  /// default): a thread it starts, or the user function it calls, runs in
  /// every program that links this TU.
  void noteStartupCall(const clang::CallExpr &call) {
    const clang::FunctionDecl *callee = call.getDirectCallee();
    if (!callee)
      return;
    if (startsHostThread(*callee)) {
      noteOnce(facts_.hostThreads, callee->getQualifiedNameAsString(), call.getBeginLoc());
      noteEvent(facts_.threadStarters, callee->getQualifiedNameAsString(), call.getBeginLoc());
    } else if (!isLibraryFunction(*callee, sm_) && !deviceOnly(*callee)) {
      if (std::string key = orderingKey(*callee); !key.empty())
        facts_.startupCalls.push_back(std::move(key));
    }
  }

  /// A stream creation (the API table's `Creates` rows): without a flags
  /// argument the stream blocks on the legacy stream; with one, its
  /// cudaStreamNonBlocking bit (1, CU_STREAM_NON_BLOCKING too) decides.
  void noteCreation(const clang::CallExpr &call, const api::ApiInfo &row) {
    if (!call.getNumArgs())
      return;
    const clang::ValueDecl *stream = writtenStream(call.getArg(0));
    if (!stream)
      return;
    StreamSource source = unknown(stream->getNameAsString());
    if (row.flagsIndex < 0) {
      source.blocking = Blocking::Blocking;
    } else if (call.getNumArgs() > static_cast<unsigned>(row.flagsIndex)) {
      clang::Expr::EvalResult value;
      if (call.getArg(row.flagsIndex)->EvaluateAsInt(value, ast_))
        source.blocking = (value.Val.getInt().getZExtValue() & 1) ? Blocking::NonBlocking
                                                                  : Blocking::Blocking;
    }
    write(*stream, std::move(source));
  }

  void write(const clang::ValueDecl &stream, StreamSource value) {
    if (std::string key = orderingKey(stream); !key.empty())
      facts_.writes.push_back({key, std::move(value)});
  }

  TranslationUnitContext &context_;
  clang::ASTContext &ast_;
  const clang::SourceManager &sm_;
  OrderingFacts &facts_;
  bool libraryTarget_;
  std::set<const std::vector<std::string> *> noted_; ///< lists noteOnce filled
  std::set<std::pair<const std::vector<ProgramEvent> *, std::string>> notedIn_; ///< noteEvent's
  std::vector<const clang::FunctionDecl *> frames_;
  std::map<const clang::FunctionDecl *, size_t> functionIndex_; // into facts_.functions
  std::map<const clang::FunctionDecl *, Operations> operations_;
  std::vector<std::pair<const clang::FunctionDecl *, const clang::CallExpr *>> calls_;
  std::set<const clang::DeclRefExpr *> callees_;
};

} // namespace

void collectOrderingFacts(TranslationUnitContext &context, bool libraryTarget,
                          OrderingFacts &facts) {
  // facts.fixes (the TU's conditional fixes) name callees whose summaries
  // the whole-program pass reads.
  FactsCollector collector(context, libraryTarget, facts);
  // What the scope names (AnalysisScope.h): the user's code, or the
  // project's and the library functions it calls; the whole TU when unset.
  for (clang::Decl *decl : context.ast().getTraversalScope())
    if (!traversedThroughItsExpression(*decl))
      collector.TraverseDecl(decl);
  collector.finish();
}


} // namespace streamlint
