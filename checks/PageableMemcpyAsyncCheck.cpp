#include "checks/PageableMemcpyAsyncCheck.h"

#include "analyzer/analysis/StreamResolution.h"
#include "analyzer/reach/TranslationUnitReach.h"
#include "api/CudaApiTable.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSet.h"

using namespace clang::ast_matchers;

namespace streamlint {
namespace {

constexpr int HostToHost = api::HostToHost, HostToDevice = api::HostToDevice,
              DeviceToHost = api::DeviceToHost, DeviceToDevice = api::DeviceToDevice,
              Default = api::DefaultDirection;

/// The table's row for an asynchronous copy with a host side, any spelling.
const api::ApiInfo *findCopyApi(llvm::StringRef name) {
  const api::ApiInfo *info = api::findApi(name);
  return info && api::isAsyncHostCopy(*info) ? info : nullptr;
}

const clang::Expr *stripCasts(const clang::Expr *e) {
  while (true) {
    e = e->IgnoreParens();
    if (const auto *cast = llvm::dyn_cast<clang::CastExpr>(e))
      e = cast->getSubExpr();
    else
      return e;
  }
}

bool refersTo(const clang::Expr *e, const clang::VarDecl *var) {
  const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(stripCasts(e));
  return ref && ref->getDecl() == var;
}

/// cudaMemcpy3DAsync(&p, s): the kind and ends written into the local `p`
/// before the call. Several writes of one member make it unknown (null).
struct Memcpy3DEnds {
  const clang::Expr *kind = nullptr, *source = nullptr, *destination = nullptr;
};

class Memcpy3DCollector : public clang::RecursiveASTVisitor<Memcpy3DCollector> {
public:
  Memcpy3DCollector(const clang::VarDecl *parms, const clang::CallExpr *copy,
                    const clang::SourceManager &sm)
      : parms_(parms), copy_(copy), sm_(sm) {}
  bool VisitBinaryOperator(clang::BinaryOperator *assign) {
    if (assign->getOpcode() == clang::BO_Assign)
      record(assign, assign->getLHS(), assign->getRHS());
    return true;
  }
  // Struct members (srcPtr = make_cudaPitchedPtr(...)) assign through the
  // implicit operator= in C++.
  bool VisitCXXOperatorCallExpr(clang::CXXOperatorCallExpr *assign) {
    if (assign->getOperator() == clang::OO_Equal && assign->getNumArgs() == 2)
      record(assign, assign->getArg(0), assign->getArg(1));
    return true;
  }
  void record(const clang::Expr *assign, const clang::Expr *target, const clang::Expr *value) {
    if (!sm_.isBeforeInTranslationUnit(assign->getBeginLoc(), copy_->getBeginLoc()))
      return;
    // parms.srcPtr = make_cudaPitchedPtr(p, ...), parms.srcPtr.ptr = p, parms.kind = k
    llvm::SmallVector<llvm::StringRef, 2> path;
    const clang::Expr *lhs = target->IgnoreParenImpCasts();
    while (const auto *member = llvm::dyn_cast<clang::MemberExpr>(lhs)) {
      path.insert(path.begin(), member->getMemberDecl()->getName());
      lhs = member->getBase()->IgnoreParenImpCasts();
    }
    if (!refersTo(lhs, parms_) || path.empty() || (path.size() == 2 && path[1] != "ptr"))
      return;
    if (path.size() == 1 && path[0] != "kind") {
      const auto *make = llvm::dyn_cast<clang::CallExpr>(value->IgnoreImplicit()->IgnoreParens());
      value = make && make->getDirectCallee() && make->getNumArgs() == 4 &&
                      make->getDirectCallee()->getName() == "make_cudaPitchedPtr"
                  ? make->getArg(0)
                  : nullptr;
    }
    const clang::Expr **slot = path[0] == "kind"     ? &ends.kind
                               : path[0] == "srcPtr" ? &ends.source
                               : path[0] == "dstPtr" ? &ends.destination
                                                     : nullptr;
    if (slot)
      *slot = seen_.insert(path[0]).second ? value : nullptr;
  }
  Memcpy3DEnds ends;

private:
  const clang::VarDecl *parms_;
  const clang::CallExpr *copy_;
  const clang::SourceManager &sm_;
  llvm::StringSet<> seen_;
};

std::string indentOf(clang::SourceLocation at, const clang::SourceManager &sm) {
  auto [file, offset] = sm.getDecomposedLoc(at);
  llvm::StringRef buffer = sm.getBufferData(file);
  size_t lineStart = buffer.rfind('\n', offset == 0 ? 0 : offset - 1);
  lineStart = lineStart == llvm::StringRef::npos ? 0 : lineStart + 1;
  llvm::StringRef indent = buffer.slice(lineStart, offset);
  return indent.find_first_not_of(" \t") == llvm::StringRef::npos ? indent.str() : "";
}

} // namespace

PageableMemcpyAsyncCheck::PageableMemcpyAsyncCheck(TranslationUnitContext &context)
    : Check(rule().id, context), strict_(boolOption("Strict", false)),
      provenance_(context.ast()) {}

RuleInfo PageableMemcpyAsyncCheck::rule() {
  RuleInfo rule;
  rule.id = "pageable-memcpy-async";
  rule.shortDescription = "Asynchronous copy from or to pageable host memory";
  rule.fullDescription =
      "cudaMemcpyAsync and its 2D/3D/symbol variants only run asynchronously "
      "when the host memory is page-locked. With malloc, new, std::vector, "
      "stack or global memory the runtime stages the copy through an internal "
      "pinned buffer: the host waits and the copy does not overlap kernels "
      "(8 MiB device-to-host: 0.69 ms pageable vs 0.153 ms pinned on an H200).";
  rule.helpText = "Allocate the host buffer with cudaMallocHost/cudaHostAlloc, "
                  "or pin existing memory once with cudaHostRegister.";
  rule.helpUri = "docs/checks/pageable-memcpy-async.md";
  return rule;
}

std::vector<OptionSpec> PageableMemcpyAsyncCheck::options() {
  return {{"Strict", OptionType::Bool, "false", {}, "true",
           "also note copies whose host memory is of unknown origin"}};
}

void PageableMemcpyAsyncCheck::registerMatchers(MatchFinder &finder) {
  std::vector<std::string> names;
  for (const api::ApiInfo &info : api::allApis())
    if (api::isAsyncHostCopy(info))
      for (std::string &name : api::spellingsOf(info))
        names.push_back(std::move(name));
  std::vector<llvm::StringRef> refs(names.begin(), names.end());
  finder.addMatcher(
      callExpr(callee(functionDecl(hasAnyName(refs))))
          .bind("copy"),
      this);
  // Functions returning host memory, for copies in other TUs (wrappers).
  finder.addMatcher(functionDecl(isDefinition(), returns(pointerType()),
                                   unless(isExpansionInSystemHeader()),
                                   unless(isTemplateInstantiation()),
                                   unless(cxxMethodDecl(isVirtual())))
                          .bind("producer"),
                      this);
}

void PageableMemcpyAsyncCheck::check(const MatchFinder::MatchResult &result) {
  if (const auto *producer = result.Nodes.getNodeAs<clang::FunctionDecl>("producer")) {
    summarizeReturn(*producer);
    return;
  }
  const auto *copy = result.Nodes.getNodeAs<clang::CallExpr>("copy");
  const clang::FunctionDecl *callee = copy->getDirectCallee();
  const api::ApiInfo *copyApi = findCopyApi(callee->getName());
  if (!copyApi)
    return;
  auto argument = [&](int index) -> const clang::Expr * {
    return index >= 0 && static_cast<unsigned>(index) < copy->getNumArgs() ? copy->getArg(index)
                                                                          : nullptr;
  };
  const clang::Expr *kindExpr = argument(copyApi->kindIndex);
  const clang::Expr *source = argument(copyApi->hostSource);
  const clang::Expr *destination = argument(copyApi->hostDestination);
  bool threeD = copyApi->hostEndsInStruct;
  if (threeD) {
    const auto *addressOf = llvm::dyn_cast<clang::UnaryOperator>(stripCasts(copy->getArg(0)));
    const auto *ref = addressOf && addressOf->getOpcode() == clang::UO_AddrOf
                          ? llvm::dyn_cast<clang::DeclRefExpr>(stripCasts(addressOf->getSubExpr()))
                          : nullptr;
    const auto *parms = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
    const clang::FunctionDecl *function = context().enclosingFunction(*copy);
    if (!parms || !parms->hasLocalStorage() || !function || !function->hasBody())
      return;
    Memcpy3DCollector collector(parms, copy, context().sources());
    collector.TraverseStmt(function->getBody());
    kindExpr = collector.ends.kind;
    source = collector.ends.source;
    destination = collector.ends.destination;
  }

  int kind = Default; // an unknown kind: look at both ends
  clang::Expr::EvalResult value;
  if (copyApi->kindIndex < 0 && !threeD)
    kind = copyApi->fixedDirection;
  else if (kindExpr && !kindExpr->isValueDependent() &&
           kindExpr->EvaluateAsInt(value, context().ast()))
    kind = static_cast<int>(value.Val.getInt().getExtValue());
  if (kind == HostToHost || kind == DeviceToDevice || kind < 0 || kind > Default)
    return;

  const clang::FunctionDecl *function = context().enclosingFunction(*copy);
  auto provenanceOf = [&](const clang::Expr *end, bool hostEnd) {
    if (!hostEnd)
      return Provenance{MemoryKind::Device, "", {}, nullptr, nullptr, nullptr};
    if (!end)
      return Provenance{};
    return provenance_.of(end, copy, function);
  };
  bool sourceIsHost = copyApi->hostSource >= 0 || threeD;
  bool destinationIsHost = copyApi->hostDestination >= 0 || threeD;
  Provenance from = provenanceOf(source, sourceIsHost && kind != DeviceToHost);
  Provenance to = provenanceOf(destination, destinationIsHost && kind != HostToDevice);

  // With cudaMemcpyDefault both ends pageable is a host-to-host copy: no
  // staging to complain about.
  const Provenance *pageable = nullptr;
  bool fromPageable = from.kind == MemoryKind::Pageable;
  bool toPageable = to.kind == MemoryKind::Pageable;
  if (fromPageable != toPageable)
    pageable = fromPageable ? &from : &to;

  std::string apiName = apiNameAsWritten(*callee); // as written, not _ptsz
  bool dependent = function && function->isDependentContext();
  auto message = [&](bool fromHost, const std::string &origin) {
    return apiName + (fromHost ? " from" : " to") + " pageable host memory (" + origin +
           "): the runtime stages it through a pinned buffer and the copy does not "
           "overlap; allocate it with cudaMallocHost or pin it with cudaHostRegister";
  };
  if (!pageable) {
    // The host end comes from a function another TU defines (a malloc
    // wrapper): the whole-program pass decides, if the other end is known
    // not to be pageable.
    auto settled = [](const Provenance &p) {
      return p.kind == MemoryKind::Device || p.kind == MemoryKind::Pinned;
    };
    auto decidedElsewhere = [](const Provenance &p) {
      return p.returnedBy || p.parameterOf;
    };
    const Provenance *elsewhere = decidedElsewhere(from) && settled(to)   ? &from
                                  : decidedElsewhere(to) && settled(from) ? &to
                                                                          : nullptr;
    if (elsewhere && !dependent) {
      elsewhere_.push_back({copy, elsewhere->returnedBy, elsewhere->parameterOf, apiName,
                            message(elsewhere == &from, "{origin}")});
      return;
    }
    bool unknown = (from.kind == MemoryKind::Unknown || to.kind == MemoryKind::Unknown) &&
                   !(fromPageable && toPageable);
    // In a template pattern types are dependent: its instantiations answer.
    if (strict_ && unknown && !dependent)
      report(Severity::Note, copy->getSourceRange(), unknownMemoryNote(apiName), copy);
    return;
  }
  Finding &finding = report(Severity::Warning, copy->getSourceRange(),
                            message(pageable == &from, pageable->origin), copy);
  if (pageable->location.isValid())
    context().addRelated(finding, pageable->location,
                         pageable->allocation ? "host memory allocated here by " +
                                                    pageable->origin
                                              : "host memory declared here");
  if (function)
    if (std::optional<FixIt> fix = pinnedAllocationFix(*pageable, function))
      finding.fixes.push_back(std::move(*fix));
}

std::optional<FixIt>
PageableMemcpyAsyncCheck::pinnedAllocationFix(const Provenance &memory,
                                              const clang::FunctionDecl *function) {
  const clang::VarDecl *var = memory.holder;
  const clang::Expr *allocation = memory.allocation;
  if (!var || !allocation || fixed_.count(var) || !function->hasBody() ||
      var->isStaticLocal() || llvm::isa<clang::ParmVarDecl>(var) ||
      var->getParentFunctionOrMethod() != function)
    return std::nullopt;
  const auto *newExpr = llvm::dyn_cast<clang::CXXNewExpr>(allocation);
  const auto *mallocCall = llvm::dyn_cast<clang::CallExpr>(allocation);
  if (newExpr && (!newExpr->isArray() || newExpr->hasInitializer() ||
                  !newExpr->getAllocatedType()->isScalarType() || !newExpr->getArraySize()))
    return std::nullopt;
  if (mallocCall && (mallocCall->getDirectCallee()->getName() != "malloc" ||
                     mallocCall->getNumArgs() != 1))
    return std::nullopt;

  // Every use of the variable in the function: frees to rewrite, and uses
  // that would let the buffer outlive the function or reach another free.
  struct Uses : clang::RecursiveASTVisitor<Uses> {
    const clang::VarDecl *var;
    bool isArray;
    clang::ASTContext &ast;
    std::vector<const clang::Stmt *> frees;
    const clang::BinaryOperator *assignment = nullptr;
    unsigned assignments = 0;
    bool unsafe = false;
    Uses(const clang::VarDecl *v, bool array, clang::ASTContext &a)
        : var(v), isArray(array), ast(a) {}
    bool VisitCallExpr(clang::CallExpr *call) {
      const clang::FunctionDecl *f = call->getDirectCallee();
      llvm::StringRef name = f && f->getIdentifier() ? f->getName() : "";
      for (const clang::Expr *arg : call->arguments())
        if (refersTo(arg, var)) {
          if (name == "free" && !isArray && call->getNumArgs() == 1)
            frees.push_back(call);
          else if (name == "free" || name == "realloc")
            unsafe = true;
        }
      return true;
    }
    bool VisitCXXDeleteExpr(clang::CXXDeleteExpr *del) {
      if (refersTo(del->getArgument(), var)) {
        if (isArray && del->isArrayForm())
          frees.push_back(del);
        else
          unsafe = true;
      }
      return true;
    }
    bool VisitBinaryOperator(clang::BinaryOperator *op) {
      if (op->isAssignmentOp() && refersTo(op->getLHS(), var)) {
        ++assignments;
        assignment = op;
      }
      if (op->isAssignmentOp() && refersTo(op->getRHS(), var))
        unsafe = true; // an alias could be freed or returned
      return true;
    }
    bool VisitReturnStmt(clang::ReturnStmt *ret) {
      if (ret->getRetValue() && refersTo(ret->getRetValue(), var))
        unsafe = true;
      return true;
    }
    bool VisitUnaryOperator(clang::UnaryOperator *op) {
      if (op->getOpcode() == clang::UO_AddrOf && refersTo(op->getSubExpr(), var))
        unsafe = true;
      return true;
    }
    bool VisitVarDecl(clang::VarDecl *other) {
      if (other != var && other->getInit() && refersTo(other->getInit(), var))
        unsafe = true;
      return true;
    }
    bool VisitLambdaExpr(clang::LambdaExpr *lambda) {
      for (const clang::LambdaCapture &capture : lambda->captures())
        if (capture.capturesVariable() && capture.getCapturedVar() == var)
          unsafe = true;
      return true;
    }
  } uses(var, newExpr != nullptr, context().ast());
  uses.TraverseStmt(function->getBody());
  if (uses.unsafe || uses.frees.empty())
    return std::nullopt;

  const clang::SourceManager &sm = context().sources();
  const clang::LangOptions &lang = context().ast().getLangOpts();
  auto text = [&](const clang::Expr *e) {
    return clang::Lexer::getSourceText(
               clang::CharSourceRange::getTokenRange(e->getSourceRange()), sm, lang)
        .str();
  };
  std::string size;
  if (mallocCall) {
    size = text(mallocCall->getArg(0));
  } else {
    const clang::Expr *count = (*newExpr->getArraySize())->IgnoreImpCasts();
    std::string countText = text(count);
    if (!llvm::isa<clang::DeclRefExpr>(count) && !llvm::isa<clang::IntegerLiteral>(count))
      countText = "(" + countText + ")";
    size = countText + " * sizeof(" +
           newExpr->getAllocatedType().getAsString(context().ast().getPrintingPolicy()) + ")";
  }
  std::string name = var->getName().str();
  std::string allocate = "cudaMallocHost((void **)&" + name + ", " + size + ")";

  FixIt fix;
  fix.description = "allocate '" + name + "' with cudaMallocHost and free it with cudaFreeHost";
  auto add = [&](clang::CharSourceRange range, llvm::StringRef replacement) {
    std::optional<TextEdit> edit = context().edit(range, replacement);
    if (edit)
      fix.edits.push_back(std::move(*edit));
    return edit.has_value();
  };
  auto tokens = [](clang::SourceRange range) {
    return clang::CharSourceRange::getTokenRange(range);
  };
  if (var->getInit() && stripCasts(var->getInit()) == allocation && uses.assignments == 0) {
    // T *p = (T *)malloc(n);  ->  T *p = nullptr; cudaMallocHost((void **)&p, n);
    clang::DynTypedNodeList parents = context().ast().getParents(*var);
    const auto *declStmt = parents.empty() ? nullptr : parents[0].get<clang::DeclStmt>();
    if (!declStmt || !declStmt->isSingleDecl())
      return std::nullopt;
    clang::SourceLocation afterSemicolon =
        clang::Lexer::getLocForEndOfToken(declStmt->getEndLoc(), 0, sm, lang);
    if (!add(tokens(var->getInit()->getSourceRange()), lang.CPlusPlus11 ? "nullptr" : "NULL") ||
        !add(clang::CharSourceRange::getCharRange(afterSemicolon, afterSemicolon),
             "\n" + indentOf(declStmt->getBeginLoc(), sm) + allocate + ";"))
      return std::nullopt;
  } else if (uses.assignments == 1 && stripCasts(uses.assignment->getRHS()) == allocation &&
             (!var->getInit() || var->getInit()->isNullPointerConstant(
                                     context().ast(), clang::Expr::NPC_ValueDependentIsNotNull))) {
    // p = (T *)malloc(n); as a full statement  ->  cudaMallocHost((void **)&p, n);
    clang::DynTypedNodeList parents = context().ast().getParents(*uses.assignment);
    if (parents.empty() || !parents[0].get<clang::CompoundStmt>() ||
        !add(tokens(uses.assignment->getSourceRange()), allocate))
      return std::nullopt;
  } else {
    return std::nullopt;
  }
  for (const clang::Stmt *release : uses.frees) {
    bool ok = false;
    if (const auto *call = llvm::dyn_cast<clang::CallExpr>(release))
      ok = add(tokens(call->getCallee()->IgnoreImpCasts()->getSourceRange()), "cudaFreeHost");
    else if (const auto *del = llvm::dyn_cast<clang::CXXDeleteExpr>(release))
      ok = add(tokens(del->getSourceRange()), "cudaFreeHost(" + text(del->getArgument()) + ")");
    if (!ok)
      return std::nullopt;
  }
  fixed_.insert(var);
  return fix;
}

} // namespace streamlint
