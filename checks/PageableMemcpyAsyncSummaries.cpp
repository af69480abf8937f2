// pageable-memcpy-async's whole-program half in a TU: what this TU's
// functions return and what its calls pass for pointer parameters, and the
// copies whose host end those decide, as the check's part's facts
// (PageableMemcpyAsyncPart.h).
#include "checks/PageableMemcpyAsyncCheck.h"

#include "analyzer/reach/TranslationUnitReach.h"

#include "clang/AST/ExprCXX.h"

namespace streamlint {
namespace {

const char *kindName(MemoryKind kind) {
  switch (kind) {
  case MemoryKind::Pageable: return "pageable";
  case MemoryKind::Pinned: return "pinned";
  case MemoryKind::Device: return "device";
  case MemoryKind::Null:
  case MemoryKind::Unknown: break;
  }
  return "unknown";
}

/// A reference parameter whose referent's address a copy may take
/// (`const T &value` ... `&value`): a value type, not a container or handle.
bool valueReference(const clang::ParmVarDecl &parm, const clang::ASTContext &ast) {
  clang::QualType type = parm.getType();
  if (!type->isLValueReferenceType())
    return false;
  clang::QualType referred = type.getNonReferenceType();
  return !referred->isFunctionType() && !referred->isDependentType() &&
         referred.isTriviallyCopyableType(ast);
}

/// Parameters whose callers' memory the whole program records.
bool followedParameter(const clang::ParmVarDecl &parm, const clang::ASTContext &ast) {
  return parm.getType()->isPointerType() || valueReference(parm, ast);
}

bool hasFollowedParameter(const clang::FunctionDecl &function, const clang::ASTContext &ast) {
  for (const clang::ParmVarDecl *parm : function.parameters())
    if (followedParameter(*parm, ast))
      return true;
  return false;
}

/// The whole-program key of a function whose parameters callers decide: a
/// class template's member or a function template's instantiation stands
/// for its pattern, so the callers of every instantiation decide together.
std::string parameterKey(const clang::FunctionDecl &function) {
  const clang::FunctionDecl *pattern = function.getTemplateInstantiationPattern();
  return reach::functionUsr(pattern ? *pattern : function);
}

} // namespace

std::string PageableMemcpyAsyncCheck::unknownMemoryNote(const std::string &apiName) {
  return apiName + ": cannot tell whether the host memory is pinned; if it is "
                   "pageable the copy is staged and does not overlap";
}

void PageableMemcpyAsyncCheck::summarizeReturn(const clang::FunctionDecl &function) {
  if (function.isDependentContext() || !function.hasBody())
    return;
  Provenance returned = provenance_.returnedFrom(function);
  ReturnedMemory memory;
  memory.usr = reach::functionUsr(function);
  memory.name = reach::functionName(function, context());
  if (memory.usr.empty())
    return;
  if (returned.returnedBy) {
    memory.forwardsTo = reach::functionUsr(*returned.returnedBy);
    if (memory.forwardsTo.empty() || memory.forwardsTo == memory.usr)
      return;
  } else if ((returned.kind == MemoryKind::Pageable ||
              returned.kind == MemoryKind::Pinned) &&
             returned.site && returned.location.isValid()) {
    memory.kind = returned.kind == MemoryKind::Pageable ? "pageable" : "pinned";
    memory.origin = returned.origin;
    memory.location = context().point(returned.location);
  } else {
    return;
  }
  part_->returns.push_back(std::move(memory));
}

void PageableMemcpyAsyncCheck::checkCallGraph(reach::TranslationUnitReach &reach) {
  part_->passed = summarizeArguments();
  for (const ElsewhereCopy &copy : elsewhere_)
    deferToWholeProgram(reach, copy);
  elsewhere_.clear();
}

PartFactsPtr PageableMemcpyAsyncCheck::takePartFacts() {
  std::shared_ptr<PageableMemoryFacts> facts = std::move(part_);
  part_ = std::make_shared<PageableMemoryFacts>();
  if (facts->returns.empty() && facts->passed.empty() && facts->copies.empty())
    return nullptr;
  return facts;
}

void PageableMemcpyAsyncCheck::deferToWholeProgram(reach::TranslationUnitReach &reach,
                                                   const ElsewhereCopy &copy) {
  const clang::FunctionDecl *decider =
      copy.returnedBy ? copy.returnedBy
                      : llvm::dyn_cast<clang::FunctionDecl>(copy.parameterOf->getDeclContext());
  std::string usr = !decider           ? ""
                    : copy.returnedBy ? reach::functionUsr(*decider)
                                      : parameterKey(*decider);
  reach::CallSite site;
  site.expr = copy.copy;
  site.caller = context().enclosingFunction(*copy.copy);
  auto [before, after] = pageableWords(copy.apiName, copy.fromHost);
  std::optional<Finding> finding =
      usr.empty() ? std::nullopt : reach.pendingFinding(id(), site, before);
  if (!finding)
    return;
  PageableCopy pending;
  pending.finding = std::move(*finding);
  pending.messageTail = std::move(after);
  pending.function = std::move(usr);
  if (copy.parameterOf)
    pending.parameter = static_cast<int>(copy.parameterOf->getFunctionScopeIndex());
  pending.noteUndecided = strict_;
  pending.undecidedNote = unknownMemoryNote(copy.apiName);
  part_->copies.push_back(std::move(pending));
}

namespace {

/// The whole-program key of a user function whose pointer or value-reference
/// parameters the callers decide; "" for system headers, virtual methods and
/// functions without such parameters.
std::string followedFunctionKey(const clang::FunctionDecl &function,
                                TranslationUnitContext &context) {
  if (context.sources().isInSystemHeader(function.getLocation()) ||
      !hasFollowedParameter(function, context.ast()))
    return "";
  const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(&function);
  return method && method->isVirtual() ? "" : parameterKey(function);
}

/// Functions whose address is taken: callers the whole program cannot see.
void recordAddressTaken(TranslationUnitContext &context, PointerProvenance &provenance,
                        std::vector<PassedMemory> &passed) {
  for (const clang::FunctionDecl *function : provenance.addressTaken()) {
    std::string usr = followedFunctionKey(*function, context);
    if (usr.empty())
      continue;
    PassedMemory taken;
    taken.callee = std::move(usr);
    taken.call = context.point(function->getLocation());
    passed.push_back(std::move(taken));
  }
}

/// Functions that pin what they receive: cudaHostRegister(parameter).
void recordRegisteredParameters(TranslationUnitContext &context, PointerProvenance &provenance,
                                std::vector<PassedMemory> &passed) {
  for (const clang::CallExpr *registration : provenance.registrations()) {
    if (registration->getNumArgs() < 1)
      continue;
    Provenance memory = provenance.of(registration->getArg(0), registration,
                                      context.enclosingFunction(*registration));
    const clang::ParmVarDecl *parm = memory.parameterOf;
    const auto *function =
        parm ? llvm::dyn_cast<clang::FunctionDecl>(parm->getDeclContext()) : nullptr;
    std::string usr = function ? parameterKey(*function) : "";
    if (usr.empty())
      continue;
    PassedMemory registers;
    registers.callee = std::move(usr);
    registers.parameter = static_cast<int>(parm->getFunctionScopeIndex());
    registers.kind = "registers";
    registers.call = context.point(registration->getBeginLoc());
    passed.push_back(std::move(registers));
  }
}

/// What `call` passes for `parm` of the function keyed `usr`: the memory's
/// kind and origin, or the caller's own parameter it forwards. Nothing for
/// nullptr, which says nothing about the memory.
std::optional<PassedMemory>
passedArgument(TranslationUnitContext &context, PointerProvenance &provenance,
               const clang::CallExpr *call, const clang::FunctionDecl *caller,
               const clang::ParmVarDecl *parm, unsigned argument, const std::string &usr) {
  // A reference parameter: the memory the argument itself lives in.
  Provenance memory = parm->getType()->isReferenceType()
                          ? provenance.storage(call->getArg(argument), call, caller)
                          : provenance.of(call->getArg(argument), call, caller);
  if (memory.kind == MemoryKind::Null)
    return std::nullopt;
  PassedMemory arg;
  arg.callee = usr;
  arg.parameter = static_cast<int>(parm->getFunctionScopeIndex());
  arg.call = context.point(call->getBeginLoc());
  arg.callerName = caller ? reach::functionName(*caller, context) : "global scope";
  const clang::ParmVarDecl *forwarded = memory.parameterOf;
  const auto *forwarder =
      forwarded ? llvm::dyn_cast<clang::FunctionDecl>(forwarded->getDeclContext()) : nullptr;
  if (forwarder) {
    arg.forwardsTo = parameterKey(*forwarder);
    arg.forwardsParameter = static_cast<int>(forwarded->getFunctionScopeIndex());
  }
  if (arg.forwardsTo.empty()) {
    arg.kind = kindName(memory.kind);
    arg.origin = memory.origin;
    if (memory.location.isValid())
      arg.location = context.point(memory.location);
    arg.allocated = memory.allocation != nullptr;
  }
  return arg;
}

/// What each call of a user function passes for its followed parameters.
void recordCallArguments(TranslationUnitContext &context, PointerProvenance &provenance,
                         std::vector<PassedMemory> &passed) {
  const clang::SourceManager &sm = context.sources();
  for (const auto &[callee, calls] : provenance.callsByCallee()) {
    std::string usr = followedFunctionKey(*callee, context);
    if (usr.empty())
      continue;
    for (const clang::CallExpr *call : calls) {
      const clang::FunctionDecl *caller = context.enclosingFunction(*call);
      if (sm.isInSystemHeader(call->getBeginLoc()) || (caller && caller->isDependentContext()))
        continue;
      // An operator that is a member takes its object as argument 0.
      unsigned shift = llvm::isa<clang::CXXOperatorCallExpr>(call) &&
                       llvm::isa<clang::CXXMethodDecl>(callee);
      for (const clang::ParmVarDecl *parm : callee->parameters()) {
        unsigned argument = parm->getFunctionScopeIndex() + shift;
        if (!followedParameter(*parm, context.ast()) || argument >= call->getNumArgs())
          continue;
        if (std::optional<PassedMemory> arg =
                passedArgument(context, provenance, call, caller, parm, argument, usr))
          passed.push_back(std::move(*arg));
      }
    }
  }
}

} // namespace

std::vector<PassedMemory> PageableMemcpyAsyncCheck::summarizeArguments() {
  std::vector<PassedMemory> passed;
  recordAddressTaken(context(), provenance_, passed);
  recordRegisteredParameters(context(), provenance_, passed);
  recordCallArguments(context(), provenance_, passed);
  return passed;
}

} // namespace streamlint
