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

} // namespace

PageableMemcpyAsyncCheck::PageableMemcpyAsyncCheck(TranslationUnitContext &context)
    : Check(rule().id, context, options()), strict_(boolOption("Strict")),
      provenance_(context.ast(), &context.info().instantiations,
                  context.info().preambleInstantiationsNameProject), fixer_(context, provenance_) {}

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
  if (const api::ApiInfo *copyApi = findCopyApi(copy->getDirectCallee()->getName()))
    checkCopy(copy, *copyApi);
}

/// The kind argument and the host-side ends of `copy`; cudaMemcpy3DAsync's
/// are read from the assignments to its parameter struct.
PageableMemcpyAsyncCheck::CopyEnds
PageableMemcpyAsyncCheck::copyEnds(const clang::CallExpr *copy, const api::ApiInfo &copyApi) {
  auto argument = [&](int index) -> const clang::Expr * {
    return index >= 0 && static_cast<unsigned>(index) < copy->getNumArgs() ? copy->getArg(index)
                                                                          : nullptr;
  };
  if (!copyApi.hostEndsInStruct)
    return {argument(copyApi.kindIndex), argument(copyApi.hostSource),
            argument(copyApi.hostDestination), true};
  const auto *addressOf = llvm::dyn_cast<clang::UnaryOperator>(stripCasts(copy->getArg(0)));
  const auto *ref = addressOf && addressOf->getOpcode() == clang::UO_AddrOf
                        ? llvm::dyn_cast<clang::DeclRefExpr>(stripCasts(addressOf->getSubExpr()))
                        : nullptr;
  const auto *parms = ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
  const clang::FunctionDecl *function = context().enclosingFunction(*copy);
  if (!parms || !parms->hasLocalStorage() || !function || !function->hasBody())
    return {nullptr, nullptr, nullptr, false};
  Memcpy3DCollector collector(parms, copy, context().sources());
  collector.TraverseStmt(function->getBody());
  return {collector.ends.kind, collector.ends.source, collector.ends.destination, true};
}

/// The copy's direction (a cudaMemcpyKind value); Default when unknown.
int PageableMemcpyAsyncCheck::copyKind(const api::ApiInfo &copyApi, const clang::Expr *kindExpr) {
  clang::Expr::EvalResult value;
  if (copyApi.kindIndex < 0 && !copyApi.hostEndsInStruct)
    return copyApi.fixedDirection;
  if (kindExpr && !kindExpr->isValueDependent() &&
      kindExpr->EvaluateAsInt(value, context().ast()))
    return static_cast<int>(value.Val.getInt().getExtValue());
  return Default;
}

std::pair<std::string, std::string>
PageableMemcpyAsyncCheck::pageableWords(const std::string &apiName, bool fromHost) {
  return {apiName + (fromHost ? " from" : " to") + " pageable host memory (",
          "): the runtime stages it through a pinned buffer and the copy does not "
          "overlap; allocate it with cudaMallocHost or pin it with cudaHostRegister"};
}

std::string PageableMemcpyAsyncCheck::pageableMessage(const std::string &apiName, bool fromHost,
                                                      const std::string &origin) {
  auto [before, after] = pageableWords(apiName, fromHost);
  return before + origin + after;
}

void PageableMemcpyAsyncCheck::checkCopy(const clang::CallExpr *copy,
                                         const api::ApiInfo &copyApi) {
  CopyEnds ends = copyEnds(copy, copyApi);
  if (!ends.known)
    return;
  int kind = copyKind(copyApi, ends.kind);
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
  bool threeD = copyApi.hostEndsInStruct;
  Provenance from = provenanceOf(ends.source, (copyApi.hostSource >= 0 || threeD) &&
                                                  kind != DeviceToHost);
  Provenance to = provenanceOf(ends.destination, (copyApi.hostDestination >= 0 || threeD) &&
                                                     kind != HostToDevice);
  // With cudaMemcpyDefault both ends pageable is a host-to-host copy: no
  // staging to complain about.
  bool fromPageable = from.kind == MemoryKind::Pageable;
  bool toPageable = to.kind == MemoryKind::Pageable;
  std::string apiName = apiNameAsWritten(*copy->getDirectCallee()); // not _ptsz
  if (fromPageable != toPageable)
    reportPageable(copy, fromPageable ? from : to, fromPageable, apiName, function);
  else
    handleUndecided(copy, from, to, apiName, function);
}

/// Neither end is known pageable: the host end may come from a function
/// another TU defines (a malloc wrapper), which the whole-program pass
/// decides if the other end is known not to be pageable; Strict notes the rest.
void PageableMemcpyAsyncCheck::handleUndecided(const clang::CallExpr *copy,
                                               const Provenance &from, const Provenance &to,
                                               const std::string &apiName,
                                               const clang::FunctionDecl *function) {
  bool dependent = function && function->isDependentContext();
  auto settled = [](const Provenance &p) {
    return p.kind == MemoryKind::Device || p.kind == MemoryKind::Pinned;
  };
  auto decidedElsewhere = [](const Provenance &p) { return p.returnedBy || p.parameterOf; };
  const Provenance *elsewhere = decidedElsewhere(from) && settled(to)   ? &from
                                : decidedElsewhere(to) && settled(from) ? &to
                                                                        : nullptr;
  if (elsewhere && !dependent) {
    elsewhere_.push_back(
        {copy, elsewhere->returnedBy, elsewhere->parameterOf, apiName, elsewhere == &from});
    return;
  }
  bool bothPageable = from.kind == MemoryKind::Pageable && to.kind == MemoryKind::Pageable;
  bool unknown = (from.kind == MemoryKind::Unknown || to.kind == MemoryKind::Unknown) &&
                 !bothPageable;
  // In a template pattern types are dependent: its instantiations answer.
  if (strict_ && unknown && !dependent)
    report(Severity::Note, copy->getSourceRange(), unknownMemoryNote(apiName), copy);
}

void PageableMemcpyAsyncCheck::reportPageable(const clang::CallExpr *copy,
                                              const Provenance &pageable, bool fromHost,
                                              const std::string &apiName,
                                              const clang::FunctionDecl *function) {
  Finding &finding = report(Severity::Warning, copy->getSourceRange(),
                            pageableMessage(apiName, fromHost, pageable.origin), copy);
  if (pageable.location.isValid())
    context().addRelated(finding, pageable.location,
                         pageable.allocation ? "host memory allocated here by " + pageable.origin
                                             : "host memory declared here");
  if (!function)
    return;
  PinnedFixPlan plan = fixer_.plan(pageable, function);
  if (plan.fix)
    finding.fixes.push_back(std::move(*plan.fix));
  else if (!plan.blocked.empty())
    context().addRelated(finding, copy->getBeginLoc(),
                         "no fix pins this buffer: " + plan.blocked);
}

} // namespace streamlint
