// The one AST walk behind TranslationUnitReach: every call in user host code
// with its enclosing function and loops, call edges between user functions,
// CUDA API use per function and loop, and host-callback registrations.
#include "analyzer/analysis/AnalysisScope.h"
#include "analyzer/analysis/ColdPath.h"
#include "analyzer/analysis/DeviceLoop.h"
#include "analyzer/analysis/SingleRunLoop.h"
#include "analyzer/reach/CudaApi.h"
#include "analyzer/reach/TranslationUnitReach.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include "llvm/ADT/DenseSet.h"

#include <deque>
#include <functional>
#include <map>

namespace streamlint::reach {

using namespace clang;

/// Walks function bodies keeping a stack of functions and loops.
class CallGraphBuilder : public RecursiveASTVisitor<CallGraphBuilder> {
  using Base = RecursiveASTVisitor<CallGraphBuilder>;

public:
  explicit CallGraphBuilder(TranslationUnitReach &reach)
      : reach_(reach), sources_(reach.context().sources()),
        ast_(reach.context().ast()),
        pulling_(!reach.context().info().walkedDirectories.empty()) {}

  /// With the scope limited to the project's files (AnalysisScope.h): walks
  /// the definitions outside it that walked code calls, and theirs in turn,
  /// each once, and names them to the context.
  void walkCalledFunctionsOutsideTheScope() {
    while (!pending_.empty()) {
      const FunctionDecl *definition = pending_.front();
      pending_.pop_front();
      if (entered_.count(definition))
        continue;
      TraverseDecl(const_cast<FunctionDecl *>(definition));
      if (entered_.count(definition))
        reach_.context().addPulledFunction(*definition);
    }
  }

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *decl) {
    if (!decl)
      return true;
    if (!isa<TranslationUnitDecl>(decl) && inSystemHeader(decl->getLocation()))
      return true;
    auto *function = dyn_cast<FunctionDecl>(decl);
    if (!function || !function->doesThisDeclarationHaveABody())
      return Base::TraverseDecl(decl);
    if (deviceOnly(*function))
      return true;
    enterFunction(*function);
    bool result = Base::TraverseDecl(decl);
    frames_.pop_back();
    return result;
  }

  bool TraverseLambdaExpr(LambdaExpr *lambda) {
    const CXXMethodDecl *call = lambda->getCallOperator();
    if (deviceOnly(*call))
      return true;
    enterFunction(*call);
    bool result = Base::TraverseLambdaExpr(lambda);
    frames_.pop_back();
    return result;
  }

  // Loops: what runs once (for-init, the range) stays outside the loop, and
  // so does all of `do { } while (0)` (CUDA_CHECK-style macros), the
  // never-run body of `while (false)` and a loop over devices
  // (analyzer/analysis/DeviceLoop.h).
  bool TraverseForStmt(ForStmt *loop) {
    TraverseStmt(loop->getInit());
    return inLoop(loop, "for", {loop->getCond(), loop->getInc(), loop->getBody()});
  }
  bool TraverseWhileStmt(WhileStmt *loop) {
    return inLoop(loop, "while",
                  {loop->getConditionVariableDeclStmt(), loop->getCond(), loop->getBody()});
  }
  bool TraverseDoStmt(DoStmt *loop) {
    return inLoop(loop, "do", {loop->getBody(), loop->getCond()});
  }
  bool TraverseCXXForRangeStmt(CXXForRangeStmt *loop) {
    TraverseStmt(loop->getInit());
    TraverseStmt(loop->getRangeInit());
    return inLoop(loop, "range-for", {loop->getLoopVarStmt(), loop->getBody()});
  }

  // A branch that does not repeat with its loop (error handling, lazy
  // initialization, one that leaves the function) is outside the loops
  // around it; the allocations, frees and synchronizations of error handling
  // and lazy initialization are not the function's steady state either, even
  // when a caller's loop calls it (analyzer/analysis/ColdPath.h).
  bool TraverseIfStmt(IfStmt *branch) {
    if (frames_.empty())
      return Base::TraverseIfStmt(branch);
    TraverseStmt(branch->getInit());
    TraverseStmt(branch->getConditionVariableDeclStmt());
    TraverseStmt(branch->getCond());
    traverseBranch(branch->getThen(), classifyBranch(*branch, true, ast_));
    traverseBranch(branch->getElse(), classifyBranch(*branch, false, ast_));
    return true;
  }

  bool VisitCallExpr(CallExpr *call);
  bool VisitCXXConstructExpr(CXXConstructExpr *construct);
  bool VisitRecoveryExpr(RecoveryExpr *recovery);

private:
  struct Frame {
    const FunctionDecl *function;
    std::string usr;
    size_t index; // into the summary's functions, or SIZE_MAX without a USR
    std::vector<const Stmt *> loops; // outermost first
  };
  unsigned notSteadyState_ = 0; // depth of error-handling / lazy-init branches

  bool inSystemHeader(SourceLocation location) const {
    return location.isValid() &&
           sources_.isInSystemHeader(sources_.getExpansionLoc(location));
  }
  static bool deviceOnly(const FunctionDecl &function) {
    return function.hasAttr<CUDAGlobalAttr>() ||
           (function.hasAttr<CUDADeviceAttr>() && !function.hasAttr<CUDAHostAttr>());
  }

  void enterFunction(const FunctionDecl &function) {
    entered_.insert(&function);
    Frame frame{&function, functionUsr(function), SIZE_MAX, {}};
    if (!frame.usr.empty()) {
      auto [it, inserted] =
          functionIndex_.try_emplace(frame.usr, reach_.summary_.functions.size());
      if (inserted)
        reach_.summary_.functions.push_back(
            {frame.usr, functionName(function, reach_.context()),
             reach_.context().point(function.getLocation()), NoApi});
      frame.index = it->second;
      if (inserted)
        recordOverrides(function, frame.usr);
    }
    frames_.push_back(std::move(frame));
  }

  /// Which methods a defined method overrides: the whole-program pass
  /// follows virtual calls of those into it (VirtualCalls.h).
  void recordOverrides(const FunctionDecl &function, const std::string &usr) {
    const auto *method = dyn_cast<CXXMethodDecl>(&function);
    if (!method || !method->isVirtual())
      return;
    for (const CXXMethodDecl *overridden : method->getCanonicalDecl()->overridden_methods()) {
      std::string base = functionUsr(*overridden);
      if (!base.empty())
        reach_.summary_.overrides.push_back({usr, base});
    }
  }

  bool inLoop(Stmt *loop, const char *kind, std::initializer_list<Stmt *> parts) {
    // Straight-line code: a loop that runs at most once, and a loop over
    // devices (one iteration per GPU: set-up or teardown).
    if (frames_.empty() || runsAtMostOnce(*loop, ast_) || visitsEachDeviceOnce(*loop, ast_)) {
      for (Stmt *part : parts)
        TraverseStmt(part);
      return true;
    }
    reach_.loopIndex_[loop] = reach_.summary_.loops.size();
    reach_.summary_.loops.push_back(
        {reach_.context().point(loop->getBeginLoc()), kind, NoApi});
    frames_.back().loops.push_back(loop);
    for (Stmt *part : parts)
      TraverseStmt(part);
    frames_.back().loops.pop_back();
    return true;
  }

  void traverseBranch(Stmt *body, BranchKind kind) {
    if (!body || kind == BranchKind::Repeats) {
      TraverseStmt(body);
      return;
    }
    std::vector<const Stmt *> loops = std::move(frames_.back().loops);
    frames_.back().loops.clear();
    bool notSteadyState = kind == BranchKind::HandlesError || kind == BranchKind::LazyInit;
    notSteadyState_ += notSteadyState;
    TraverseStmt(body);
    notSteadyState_ -= notSteadyState;
    frames_.back().loops = std::move(loops);
  }

  CallSite newSite(const Expr *expr, std::string name) {
    const Frame &frame = frames_.back();
    CallSite site;
    site.expr = expr;
    site.name = std::move(name);
    site.caller = frame.function;
    site.callerUsr = frame.usr;
    site.loops.assign(frame.loops.rbegin(), frame.loops.rend());
    return site;
  }

  void record(CallSite site) {
    Frame &frame = frames_.back();
    site.steadyState = notSteadyState_ == 0;
    // Error handling and lazy initialization: not the function's churn.
    unsigned summarized =
        site.steadyState ? site.kinds : site.kinds & ~(Allocates | Frees | Synchronizes);
    if (frame.index != SIZE_MAX)
      reach_.summary_.functions[frame.index].kinds |= summarized;
    for (const Stmt *loop : frame.loops)
      reach_.summary_.loops[reach_.loopIndex_.lookup(loop)].kinds |= summarized;
    reach_.calls_.push_back(std::move(site));
  }

  void addEdge(const CallSite &site, const FunctionDecl &callee, bool virtualCall = false) {
    const FunctionDecl *definition = nullptr;
    if (pulling_ && callee.hasBody(definition) && definition && !entered_.count(definition))
      pending_.push_back(definition);
    std::string usr = functionUsr(callee);
    if (usr.empty() || site.callerUsr.empty())
      return;
    reach_.summary_.edges.push_back({site.callerUsr, usr,
                                     functionName(callee, reach_.context()),
                                     reach_.context().point(site.expr->getBeginLoc()),
                                     reach_.loopPoints(site),
                                     callee.getIdentifier() ? callee.getName().str() : "",
                                     virtualCall});
  }

  std::string spelledName(SourceLocation location, llvm::StringRef fallback) const {
    if (location.isMacroID())
      location = sources_.getImmediateSpellingLoc(location);
    llvm::StringRef text = Lexer::getSourceText(
        CharSourceRange::getTokenRange(location, location), sources_,
        ast_.getLangOpts());
    return text.empty() ? fallback.str() : text.str();
  }

  static bool isVirtualDispatch(const CallExpr &call);
  const FunctionDecl *resolveFunction(const Expr *expr, int depth) const;
  void registerCallback(const CallSite &site, const api::ApiInfo &registrar);

  TranslationUnitReach &reach_;
  const SourceManager &sources_;
  ASTContext &ast_;
  std::vector<Frame> frames_;
  std::map<std::string, size_t> functionIndex_;
  bool pulling_; // walkCalledFunctionsOutsideTheScope has work
  llvm::DenseSet<const FunctionDecl *> entered_;
  std::deque<const FunctionDecl *> pending_; // called, defined, maybe outside the scope
};

bool CallGraphBuilder::isVirtualDispatch(const CallExpr &call) {
  const auto *member = dyn_cast<CXXMemberCallExpr>(&call);
  if (!member)
    return false;
  const CXXMethodDecl *method = member->getMethodDecl();
  if (!method || !method->isVirtual())
    return false;
  const auto *callee = dyn_cast<MemberExpr>(member->getCallee()->IgnoreParens());
  bool qualified = callee && callee->hasQualifier();
  return !qualified && !method->hasAttr<FinalAttr>() &&
         !method->getParent()->hasAttr<FinalAttr>();
}

bool CallGraphBuilder::VisitCallExpr(CallExpr *call) {
  if (frames_.empty())
    return true;
  if (const auto *launch = dyn_cast<CUDAKernelCallExpr>(call)) {
    const FunctionDecl *kernel = launch->getDirectCallee();
    CallSite site = newSite(call, kernel ? kernel->getNameAsString() : "kernel");
    site.call = call;
    site.cudaApi = site.kernelLaunch = true;
    site.kinds = CallsCuda;
    record(std::move(site));
    return true;
  }
  const FunctionDecl *callee = call->getDirectCallee();
  if (!callee)
    return true; // a call through a function pointer: the chain ends
  // Operators (a lambda's operator()) have no identifier but are edges.
  llvm::StringRef declared =
      callee->getIdentifier() ? callee->getName() : llvm::StringRef();
  CallSite site = newSite(call, declared.empty() ? callee->getNameAsString()
                                                 : declared.str());
  site.call = call;
  if (isCudaApiFunction(*callee, sources_)) {
    llvm::StringRef base = api::parseApiName(declared).base;
    const api::ApiInfo *info = api::findApi(base);
    site.name = spelledName(call->getCallee()->getBeginLoc(), base);
    site.cudaApi = true;
    site.kinds = CallsCuda | allocationKinds(info);
    if (isDeviceWideSync(declared, call, reach_.context().info().perThreadDefaultStream,
                         ast_))
      site.kinds |= Synchronizes;
    if (info && info->callbackIndex >= 0)
      registerCallback(site, *info);
    record(std::move(site));
    return true;
  }
  if (streamlint::isLibraryFunction(*callee, sources_)) {
    // No edge (the chain ends here), but the call stays visible to checks
    // whose options name it (ExtraSyncFunctions, ExtraAllocFunctions, ...).
    site.opaque = true;
    record(std::move(site));
    return true;
  }
  if (isVirtualDispatch(*call)) {
    // Opaque to the TU's own checks (the overrider is not known here); the
    // whole-program pass follows it into every overrider defined in the
    // program (VirtualCalls.h).
    site.opaque = true;
    addEdge(site, *callee, /*virtualCall=*/true);
    record(std::move(site));
    return true;
  }
  site.userCall = true;
  addEdge(site, *callee);
  record(std::move(site));
  return true;
}

bool CallGraphBuilder::VisitCXXConstructExpr(CXXConstructExpr *construct) {
  const CXXConstructorDecl *constructor = construct->getConstructor();
  if (frames_.empty() || !constructor || constructor->isImplicit() ||
      inSystemHeader(constructor->getLocation()))
    return true;
  CallSite site = newSite(construct, constructor->getNameAsString());
  site.userCall = true;
  addEdge(site, *constructor);
  // The object dies in the same scope (a loop iteration, for a loop body
  // local), so its destructor runs there too: RAII buffers churn.
  if (const CXXDestructorDecl *destructor = constructor->getParent()->getDestructor())
    if (!destructor->isImplicit())
      addEdge(site, *destructor);
  record(std::move(site));
  return true;
}

bool CallGraphBuilder::VisitRecoveryExpr(RecoveryExpr *recovery) {
  // An undeclared call such as CUDA 13's removed cudaThreadSynchronize().
  if (frames_.empty())
    return true;
  std::string name = spelledName(recovery->getBeginLoc(), "");
  const api::ApiInfo *info = api::findApi(name);
  if (!info || !info->removed || info->name != name)
    return true;
  CallSite site = newSite(recovery, name);
  site.cudaApi = true;
  site.kinds = CallsCuda | (info->sync == api::SyncKind::Device ? Synchronizes : NoApi);
  record(std::move(site));
  return true;
}

/// The function an argument denotes: `f`, `&f`, `&C::f`, a non-capturing
/// lambda, or a function-pointer variable initialized once and never
/// reassigned. Anything else is unresolved and ends the chain.
const FunctionDecl *CallGraphBuilder::resolveFunction(const Expr *expr,
                                                      int depth) const {
  if (!expr || depth > 4)
    return nullptr;
  expr = expr->IgnoreParenImpCasts();
  if (const auto *unary = dyn_cast<UnaryOperator>(expr))
    if (unary->getOpcode() == UO_AddrOf || unary->getOpcode() == UO_Plus)
      return resolveFunction(unary->getSubExpr(), depth + 1);
  if (const auto *temporary = dyn_cast<MaterializeTemporaryExpr>(expr))
    return resolveFunction(temporary->getSubExpr(), depth + 1);
  if (const auto *lambda = dyn_cast<LambdaExpr>(expr))
    return lambda->getCallOperator();
  if (const auto *member = dyn_cast<CXXMemberCallExpr>(expr))
    if (const auto *conversion = dyn_cast_or_null<CXXConversionDecl>(member->getMethodDecl()))
      if (conversion->getParent()->isLambda())
        return conversion->getParent()->getLambdaCallOperator();
  const auto *ref = dyn_cast<DeclRefExpr>(expr);
  if (!ref)
    return nullptr;
  if (const auto *function = dyn_cast<FunctionDecl>(ref->getDecl()))
    return function;
  const auto *variable = dyn_cast<VarDecl>(ref->getDecl());
  if (!variable || !variable->getInit() || !variable->getType()->isPointerType())
    return nullptr;
  bool constant = variable->getType().isConstQualified() || variable->isConstexpr();
  if (!constant) {
    // A local pointer counts if nothing in the function assigns it or takes
    // its address.
    if (!variable->isLocalVarDecl() || frames_.empty() ||
        !frames_.back().function->getBody())
      return nullptr;
    bool modified = false;
    std::function<void(const Stmt *)> scan = [&](const Stmt *stmt) {
      if (!stmt || modified)
        return;
      const Expr *target = nullptr;
      if (const auto *binary = dyn_cast<BinaryOperator>(stmt))
        if (binary->isAssignmentOp())
          target = binary->getLHS();
      if (const auto *unary = dyn_cast<UnaryOperator>(stmt))
        if (unary->getOpcode() == UO_AddrOf)
          target = unary->getSubExpr();
      if (target)
        if (const auto *written = dyn_cast<DeclRefExpr>(target->IgnoreParenImpCasts()))
          modified |= written->getDecl() == variable;
      for (const Stmt *child : stmt->children())
        scan(child);
    };
    scan(frames_.back().function->getBody());
    if (modified)
      return nullptr;
  }
  return resolveFunction(variable->getInit(), depth + 1);
}

void CallGraphBuilder::registerCallback(const CallSite &site,
                                        const api::ApiInfo &registrar) {
  int argument = registrar.callbackIndex;
  if (!site.call || argument >= static_cast<int>(site.call->getNumArgs()))
    return;
  const FunctionDecl *callback = resolveFunction(site.call->getArg(argument), 0);
  if (!callback)
    return;
  std::string usr = functionUsr(*callback);
  if (usr.empty())
    return;
  reach_.summary_.callbacks.push_back(
      {usr, functionName(*callback, reach_.context()), std::string(registrar.name),
       reach_.context().point(site.call->getBeginLoc())});
}

void TranslationUnitReach::build() {
  CallGraphBuilder builder(*this);
  builder.TraverseAST(context_.ast());
  builder.walkCalledFunctionsOutsideTheScope();
}

} // namespace streamlint::reach
