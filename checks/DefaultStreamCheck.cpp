#include "checks/DefaultStreamCheck.h"
#include "analyzer/analysis/SourceFacts.h"
#include "analyzer/analysis/CallerOrdering.h"
#include "analyzer/analysis/OrderingSafety.h"
#include "analyzer/analysis/StreamOperations.h"

#include "analyzer/analysis/ProgramStream.h"

#include "analyzer/analysis/PyTorchExtension.h"
#include "api/CudaApiTable.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace streamlint {
namespace {

/// Every spelling of the table's rows that `select` accepts: under
/// per-thread default stream the real headers turn the names into macros for
/// `*_ptsz` functions.
template <typename Predicate>
internal::Matcher<clang::NamedDecl> apiNamed(Predicate select) {
  std::vector<std::string> storage;
  for (const api::ApiInfo &info : api::allApis())
    if (select(info))
      for (std::string &name : api::spellingsOf(info))
        storage.push_back(std::move(name));
  std::vector<llvm::StringRef> all(storage.begin(), storage.end());
  return hasAnyName(all); // copies the names
}

/// cudaLaunchKernelEx/ExC: the stream is a field of the launch config.
bool takesLaunchConfig(const api::ApiInfo &info) {
  return api::isStreamOrderedWork(info) && info.stream == api::StreamDefault::InConfig;
}

/// How a null stream was written; not the source text, which inside a macro
/// argument would be the whole macro invocation.
const char *nullSpelling(const clang::Expr *argument) {
  const clang::Expr *bare = argument->IgnoreParenCasts();
  if (llvm::isa<clang::CXXNullPtrLiteralExpr>(bare))
    return "nullptr";
  if (llvm::isa<clang::GNUNullExpr>(bare))
    return "NULL";
  return "0";
}

const char *CostText =
    "it implicitly synchronizes with every other blocking stream, so their "
    "work serializes instead of overlapping";

} // namespace

bool DefaultStreamCheck::takesStreamArgument(const api::ApiInfo &info) {
  return api::isStreamOrderedWork(info) && info.streamIndex >= 0;
}

DefaultStreamCheck::DefaultStreamCheck(TranslationUnitContext &context)
    : Check(rule().id, context, options()),
      noteUnderPerThread_(option("PerThreadDefaultStream") == "note"),
      perThreadBuild_(isPerThreadDefaultStreamBuild(context)),
      // Claimed by a check that fixes them with PyTorch's current stream
      // (library-default-stream's claims()); wherever it is disabled the
      // registry hands them back and they stay here.
      pyTorchSitesClaimed_(isPyTorchExtension(context.ast()) &&
                           sitesClaimed(PyTorchExtensionSites)),
      suggester_(context.ast()) {}

RuleInfo DefaultStreamCheck::rule() {
  RuleInfo rule;
  rule.id = "default-stream";
  rule.shortDescription = "Work issued on the legacy default stream";
  rule.fullDescription =
      "A kernel launch or stream-ordered CUDA call with no stream, a 0/NULL "
      "stream or cudaStreamLegacy runs on the legacy default stream, which "
      "waits for all work in every blocking stream of the device and makes "
      "them wait for it: work that could overlap serializes.";
  rule.helpText = "Pass a created stream (cudaStreamCreateWithFlags with "
                  "cudaStreamNonBlocking), the stream the surrounding code "
                  "uses, or cudaStreamPerThread; or build with "
                  "--default-stream per-thread.";
  rule.helpUri = "docs/checks/default-stream.md";
  return rule;
}

std::vector<OptionSpec> DefaultStreamCheck::options() {
  return {{"PerThreadDefaultStream", OptionType::Choice, "ignore", {"ignore", "note"}, "note",
           "default-stream use in a per-thread-default-stream build: ignore or note"}};
}

void DefaultStreamCheck::registerMatchers(MatchFinder &finder) {
  finder.addMatcher(cudaKernelCallExpr().bind("launch"), this);
  finder.addMatcher(
      callExpr(callee(functionDecl(apiNamed(takesStreamArgument))))
          .bind("api"),
      this);
  finder.addMatcher(
      callExpr(callee(functionDecl(apiNamed(takesLaunchConfig))))
          .bind("configLaunch"),
      this);
  // Calls of the user's own functions that leave a defaulted parameter out.
  finder.addMatcher(
      callExpr(unless(cudaKernelCallExpr()), unless(cxxOperatorCallExpr()),
               hasAnyArgument(cxxDefaultArgExpr()),
               callee(functionDecl(unless(isExpansionInSystemHeader()))))
          .bind("userCall"),
      this);
}

bool DefaultStreamCheck::firstReport(const clang::CallExpr &call) {
  return reported_.first(call, context().sources());
}

DefaultStreamCheck::Verdict
DefaultStreamCheck::verdict(StreamKind kind, const clang::FunctionDecl *callee) const {
  if (kind == StreamKind::Legacy)
    return Verdict::LegacyWarning;
  if (kind != StreamKind::Omitted && kind != StreamKind::Null)
    return Verdict::Quiet;
  bool perThread = perThreadBuild_;
  if (callee && callee->getIdentifier())
    perThread |= api::parseApiName(callee->getName()).perThread;
  if (!perThread)
    return Verdict::LegacyWarning;
  return noteUnderPerThread_ ? Verdict::PerThreadNote : Verdict::Quiet;
}

void DefaultStreamCheck::check(const MatchFinder::MatchResult &result) {
  const auto &nodes = result.Nodes;
  const auto *call = nodes.getNodeAs<clang::CallExpr>("launch");
  if (!call)
    call = nodes.getNodeAs<clang::CallExpr>("api");
  if (!call)
    call = nodes.getNodeAs<clang::CallExpr>("configLaunch");
  if (!call)
    call = nodes.getNodeAs<clang::CallExpr>("userCall");
  // Device-side launches (dynamic parallelism) have their own NULL stream.
  if (!call || isDeviceOnly(context().enclosingFunction(*call)))
    return;
  const clang::FunctionDecl *callee = call->getDirectCallee();
  if (nodes.getNodeAs<clang::CallExpr>("userCall")) {
    if (callee)
      checkDefaultedParameter(*call, *callee);
    return;
  }
  if (nodes.getNodeAs<clang::CallExpr>("configLaunch")) {
    checkLaunchConfig(*call, callee ? apiNameAsWritten(*callee) : "");
    return;
  }
  // In a PyTorch extension a claiming check (library-default-stream)
  // reports these, with PyTorch's current stream as the fix.
  if (pyTorchSitesClaimed_)
    return;
  std::optional<StreamArgumentSite> site = streamArgumentOf(*call);
  if (!site)
    return;
  bool launch = llvm::isa<clang::CUDAKernelCallExpr>(call);
  std::string what = launch || !callee ? "kernel launch" : apiNameAsWritten(*callee);
  StreamClassification stream = classifyStreamArgument(
      site->argument, context().ast(), context().enclosingFunction(*call));
  checkStreamSite(*call, what, *site, stream, launch ? nullptr : callee);
}

void DefaultStreamCheck::checkStreamSite(const clang::CallExpr &call,
                                         const std::string &what,
                                         const StreamArgumentSite &site,
                                         const StreamClassification &stream,
                                         const clang::FunctionDecl *callee) {
  Verdict decision = verdict(stream.kind, callee);
  if (decision == Verdict::Quiet || !firstReport(call))
    return;
  std::string name = stream.variable ? stream.variable->getNameAsString() : "";
  std::string why;
  switch (stream.kind) {
  case StreamKind::Omitted:
    why = "no stream given";
    break;
  case StreamKind::Legacy:
    why = name.empty() ? "cudaStreamLegacy" : "'" + name + "' is cudaStreamLegacy";
    break;
  default:
    why = name.empty() ? std::string("stream is ") + nullSpelling(site.argument)
                       : "'" + name + "' is only ever 0";
  }
  if (decision == Verdict::PerThreadNote) {
    report(Severity::Note, call.getSourceRange(),
           what + " uses the default stream (" + why + "), which is the "
           "per-thread default stream in this build: it does not synchronize "
           "with other streams, but everything this host thread issues on it "
           "serializes; pass a created stream to overlap work",
           &call);
    return;
  }
  Finding &finding =
      report(Severity::Warning, call.getSourceRange(),
             what + " uses the legacy default stream (" + why + "): " + CostText +
                 "; pass a created stream, the one this code already uses, or "
                 "cudaStreamPerThread",
             &call);
  if (stream.variable)
    context().addRelated(finding, stream.variable->getLocation(),
                         "'" + name + "' is declared here and never holds a created stream");
  addFix(finding, call, site, stream.kind);
}

void DefaultStreamCheck::checkLaunchConfig(const clang::CallExpr &call,
                                           const std::string &name) {
  const clang::FunctionDecl *function = context().enclosingFunction(call);
  if (!function || call.getNumArgs() == 0)
    return;
  StreamClassification stream = classifyLaunchConfigStream(call.getArg(0), *function);
  Verdict decision = verdict(stream.kind, call.getDirectCallee());
  if (decision != Verdict::LegacyWarning || !firstReport(call))
    return;
  Finding &finding = report(
      Severity::Warning, call.getSourceRange(),
      name + " uses the legacy default stream (the launch config's stream is " +
          (stream.kind == StreamKind::Legacy ? "cudaStreamLegacy" : "0") + "): " +
          CostText + "; set the config's stream to a created stream or "
          "cudaStreamPerThread",
      &call);
  if (stream.variable)
    context().addRelated(finding, stream.variable->getLocation(),
                         "launch config '" + stream.variable->getNameAsString() +
                             "' is declared here");
}

void DefaultStreamCheck::checkDefaultedParameter(const clang::CallExpr &call,
                                                 const clang::FunctionDecl &callee) {
  for (unsigned i = 0; i < call.getNumArgs() && i < callee.getNumParams(); ++i) {
    const auto *fallback = llvm::dyn_cast<clang::CXXDefaultArgExpr>(call.getArg(i));
    if (!fallback || !isStreamType(fallback->getParam()->getType()))
      continue;
    StreamClassification stream = classifyStreamArgument(fallback, context().ast());
    if (verdict(stream.kind, nullptr) != Verdict::LegacyWarning)
      continue;
    // Precision: only when the default visibly ends up as a stream.
    const clang::CallExpr *use = streamUseOfParameter(callee, i);
    if (!use || !firstReport(call))
      return;
    const clang::ParmVarDecl *parameter = fallback->getParam();
    std::string name = parameter->getNameAsString();
    std::string spelled = name.empty() ? "its stream parameter" : "'" + name + "'";
    Finding &finding = report(
        Severity::Warning, call.getSourceRange(),
        "'" + callee.getNameAsString() + "' is called without " + spelled +
            ", whose default puts its work on the legacy default stream: " +
            CostText + "; pass a created stream or cudaStreamPerThread",
        &call);
    context().addRelated(finding, parameter->getLocation(),
                         "stream parameter " + spelled + " defaults to the legacy stream here");
    context().addRelated(finding, use->getBeginLoc(),
                         "the defaulted stream is used here");
    addFix(finding, call, StreamArgumentSite{fallback, i, false}, stream.kind);
    return;
  }
}

} // namespace streamlint
