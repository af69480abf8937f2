#include "checks/LibraryDefaultStreamCheck.h"

#include "analyzer/analysis/SourceFacts.h"

#include "analyzer/analysis/OrderingSafety.h"
#include "analyzer/analysis/PyTorchExtension.h"
#include "analyzer/reach/TranslationUnitReach.h"
#include "api/LibraryApiTable.h"
#include "checks/DefaultStreamCheck.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;

namespace streamlint {
namespace {

/// The statement of a block that holds `call` (an expression statement, a
/// declaration or a checking macro's do-while), or null.
const clang::Stmt *statementHolding(const clang::Stmt &call, clang::ASTContext &ast) {
  clang::DynTypedNode current = clang::DynTypedNode::create(call);
  for (int depth = 0; depth < 32; ++depth) {
    clang::DynTypedNodeList parents = ast.getParents(current);
    if (parents.empty())
      return nullptr;
    if (parents[0].get<clang::CompoundStmt>()) {
      const auto *statement = current.get<clang::Stmt>();
      bool simple = statement && (llvm::isa<clang::Expr>(statement) ||
                                  llvm::isa<clang::DeclStmt>(statement) ||
                                  llvm::isa<clang::DoStmt>(statement));
      return simple ? statement : nullptr;
    }
    current = parents[0];
  }
  return nullptr;
}

} // namespace

std::string libraryCallName(const clang::FunctionDecl &callee) {
  if (!callee.getIdentifier())
    return callee.getNameAsString();
  llvm::StringRef name = callee.getName();
  return std::string(api::baseName(std::string_view(name.data(), name.size())));
}

LibraryDefaultStreamCheck::LibraryDefaultStreamCheck(TranslationUnitContext &context)
    : Check(rule().id, context),
      perThreadBuild_(isPerThreadDefaultStreamBuild(context)),
      pyTorchExtension_(isPyTorchExtension(context.ast())), provenance_(context.ast(), &context.info().instantiations,
                  context.info().preambleInstantiationsNameProject) {}

std::vector<SiteClaim> LibraryDefaultStreamCheck::claims() {
  return {{DefaultStreamCheck::rule().id, DefaultStreamCheck::PyTorchExtensionSites}};
}

RuleInfo LibraryDefaultStreamCheck::rule() {
  RuleInfo rule;
  rule.id = "library-default-stream";
  rule.shortDescription = "CUDA library work on the default stream";
  rule.fullDescription =
      "A cuBLAS, cuSPARSE, cuSOLVER, cuDNN handle, cuFFT plan or cuRAND "
      "generator used before a stream is bound to it, a cuBLASLt, NCCL or CUB "
      "call whose stream is left out or 0, a Thrust algorithm without a "
      "stream policy in code that uses a created stream, or a PyTorch "
      "extension launching without PyTorch's current stream: the work runs "
      "on the default stream instead of the stream the code orders its work on.";
  rule.helpText = "Bind the handle with cublasSetStream (cusparseSetStream, "
                  "cufftSetStream, ...) right after creating it, pass the "
                  "stream argument, use thrust::cuda::par.on(stream), or in a "
                  "PyTorch extension at::cuda::getCurrentCUDAStream().";
  rule.helpUri = "docs/checks/library-default-stream.md";
  return rule;
}

void LibraryDefaultStreamCheck::registerMatchers(MatchFinder &finder) {
  finder.addMatcher(callExpr(unless(isExpansionInSystemHeader())).bind("call"), this);
  finder.addMatcher(
      declRefExpr(unless(isExpansionInSystemHeader()), to(varDecl())).bind("reference"),
      this);
  finder.addMatcher(
      memberExpr(unless(isExpansionInSystemHeader()), member(fieldDecl()))
          .bind("reference"),
      this);
  finder.addMatcher(parmVarDecl(unless(isExpansionInSystemHeader())).bind("parameter"),
                    this);
}

bool LibraryDefaultStreamCheck::firstReport(const clang::Stmt &site) {
  return reported_.first(site, context().sources());
}

void LibraryDefaultStreamCheck::check(const MatchFinder::MatchResult &result) {
  // Handles are followed in template instantiations, not in the patterns
  // (whose dependent calls resolve to nothing): both share the facts' keys.
  if (const auto *reference = result.Nodes.getNodeAs<clang::Expr>("reference")) {
    if (!libraryHandleOfType(reference->getType()))
      return;
    const clang::FunctionDecl *function = context().enclosingFunction(*reference);
    if (!function || !function->isDependentContext())
      handles_.addReference(*reference);
    return;
  }
  if (const auto *parameter = result.Nodes.getNodeAs<clang::ParmVarDecl>("parameter")) {
    if (!parameter->getDeclContext()->isDependentContext())
      handles_.addParameter(*parameter);
    return;
  }
  const auto *call = result.Nodes.getNodeAs<clang::CallExpr>("call");
  if (!call)
    return;
  // The enclosing function (a walk up clang's parent map) is looked up only
  // for the calls acted on below: this matcher sees every call outside
  // system headers, a library's (PyTorch's) included.
  bool launch = llvm::isa<clang::CUDAKernelCallExpr>(call);
  const clang::FunctionDecl *callee = call->getDirectCallee();
  if (launch ? !pyTorchExtension_ : !callee || !mayActOn(*call, *callee))
    return;
  const clang::FunctionDecl *function = context().enclosingFunction(*call);
  if (!function || isDeviceOnly(function))
    return;
  if (launch) {
    checkPyTorchSite(*call);
    return;
  }
  if (!function->isDependentContext())
    handles_.addCall(*call, function);
  if (callee->getIdentifier()) {
    llvm::StringRef name = callee->getName();
    std::string_view spelled(name.data(), name.size());
    if (const api::LibraryStreamCall *row = api::findLibraryStreamCall(spelled)) {
      checkStreamArgument(*call, row->library, libraryCallName(*callee),
                          static_cast<unsigned>(row->streamIndex));
      return;
    }
    if (const api::LibraryHandleInfo *handle = api::handleBoundBy(spelled)) {
      if (call->getNumArgs() == 2)
        checkStreamArgument(*call, handle->library, libraryCallName(*callee), 1);
      return;
    }
    if (pyTorchExtension_ && api::findApi(spelled)) {
      checkPyTorchSite(*call);
      return;
    }
  }
  if (isCubAlgorithm(*callee))
    checkCubCall(*call, *callee);
  else if (isThrustAlgorithm(*callee))
    checkThrustCall(*call);
}

bool LibraryDefaultStreamCheck::isThrustAlgorithm(const clang::FunctionDecl &callee) {
  return !llvm::isa<clang::CXXMethodDecl>(callee) && callee.getIdentifier() &&
         callee.getQualifiedNameAsString() == "thrust::" + callee.getName().str() &&
         api::isThrustAlgorithm(
             std::string_view(callee.getName().data(), callee.getName().size()));
}

bool LibraryDefaultStreamCheck::mayActOn(const clang::CallExpr &call,
                                         const clang::FunctionDecl &callee) const {
  // What LibraryHandleTracker::addCall records: a handle's creation, or a
  // call given a handle.
  for (const clang::Expr *argument : call.arguments())
    if (libraryHandleOfType(argument->getType()))
      return true;
  if (callee.getIdentifier()) {
    llvm::StringRef name = callee.getName();
    std::string_view spelled(name.data(), name.size());
    if (api::handleCreatedBy(spelled) || api::findLibraryStreamCall(spelled) ||
        api::handleBoundBy(spelled) || (pyTorchExtension_ && api::findApi(spelled)))
      return true;
  }
  return isCubAlgorithm(callee) || isThrustAlgorithm(callee);
}

void LibraryDefaultStreamCheck::checkCallGraph(reach::TranslationUnitReach &reach) {
  handleFacts_ = handles_.facts(context(), [&](const HandleCreation &created) {
    return unboundHandleFinding(created, reach);
  });
}

PartFactsPtr LibraryDefaultStreamCheck::takePartFacts() {
  if (handleFacts_.empty())
    return nullptr;
  auto facts = std::make_shared<LibraryHandleFacts>();
  facts->handles = std::move(handleFacts_);
  handleFacts_.clear();
  return facts;
}

std::optional<Finding>
LibraryDefaultStreamCheck::unboundHandleFinding(const HandleCreation &created,
                                                const reach::TranslationUnitReach &reach) const {
  std::string library = api::libraryName(created.library->library);
  std::string name = created.storage->getNameAsString();
  std::string bind(created.library->bindStream);
  reach::CallSite site;
  site.expr = created.creation;
  site.call = created.creation;
  site.caller = created.creatingFunction;
  // The uses are related locations, added by the whole-program pass, not
  // part of the message: a handle created in a header that several TUs
  // include is then one finding, whatever each TU does with it.
  std::optional<Finding> finding = reach.pendingFinding(
      rule().id, site,
      library + " handle '" + name + "' does work before any stream is bound to it: " +
          library +
          " runs it on the legacy default stream, which serializes with every "
          "blocking stream and is unordered with non-blocking ones; bind the "
          "stream this work belongs on with " + bind + "(" + name +
          ", stream) after creating it");
  if (!finding)
    return std::nullopt;
  std::string stream = streamToPass(*created.creation);
  if (!stream.empty())
    addSuggestion(*finding, bindAfterCreation(created, stream),
                  "bind '" + stream + "', the stream this function uses, right "
                  "after creating '" + name + "'");
  return finding;
}

std::optional<TextEdit>
LibraryDefaultStreamCheck::bindAfterCreation(const HandleCreation &unbound,
                                             const std::string &stream) const {
  clang::ASTContext &ast = context().ast();
  const clang::SourceManager &sm = ast.getSourceManager();
  const clang::Stmt *statement = statementHolding(*unbound.creation, ast);
  if (!statement || unbound.creation->getNumArgs() == 0)
    return std::nullopt;
  const auto *address = llvm::dyn_cast<clang::UnaryOperator>(
      unbound.creation->getArg(0)->IgnoreParenImpCasts());
  if (!address)
    return std::nullopt;
  clang::CharSourceRange handleRange = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(address->getSubExpr()->getSourceRange()),
      sm, ast.getLangOpts());
  std::string handle =
      clang::Lexer::getSourceText(handleRange, sm, ast.getLangOpts()).str();
  if (handle.empty())
    return std::nullopt;
  clang::SourceLocation end = sm.getExpansionRange(statement->getEndLoc()).getEnd();
  clang::SourceLocation after =
      llvm::isa<clang::DeclStmt>(statement)
          ? clang::Lexer::getLocForEndOfToken(end, 0, sm, ast.getLangOpts())
          : clang::Lexer::findLocationAfterToken(end, clang::tok::semi, sm,
                                                 ast.getLangOpts(), false);
  if (after.isInvalid())
    return std::nullopt;
  unsigned column = sm.getExpansionColumnNumber(sm.getExpansionLoc(statement->getBeginLoc()));
  std::string text = "\n" + std::string(column > 0 ? column - 1 : 0, ' ') +
                     std::string(unbound.library->bindStream) + "(" + handle + ", " +
                     stream + ");";
  return context().edit(clang::CharSourceRange::getCharRange(after, after), text);
}

std::string LibraryDefaultStreamCheck::streamToPass(const clang::Stmt &site) const {
  if (pyTorchExtension_)
    return PyTorchCurrentStream;
  const clang::FunctionDecl *function = context().enclosingFunction(site);
  if (!function)
    return "";
  std::optional<StreamInScope> inScope =
      uniqueStreamInScope(*function, site, context().ast());
  return inScope ? inScope->spelling : "";
}

void LibraryDefaultStreamCheck::addSuggestion(Finding &finding,
                                              std::optional<TextEdit> edit,
                                              const std::string &description) const {
  if (!edit)
    return;
  FixIt fix;
  // Binding a handle or changing a Thrust policy moves work the ordering
  // analysis cannot follow (every later use of the handle, an algorithm
  // that also waits): a suggestion, never applied.
  fix.description = description;
  fix.edits.push_back(std::move(*edit));
  fix.applicable = false;
  finding.fixes.push_back(std::move(fix));
}

void LibraryDefaultStreamCheck::addMoveFix(Finding &finding, const clang::CallExpr &call,
                                           std::optional<TextEdit> edit,
                                           const std::string &description) const {
  const clang::FunctionDecl *function = context().enclosingFunction(call);
  std::optional<StreamInScope> inScope =
      function && !pyTorchExtension_ ? uniqueStreamInScope(*function, call, context().ast())
                                     : std::nullopt;
  if (!edit || !inScope || !inScope->variable) {
    addSuggestion(finding, std::move(edit), description);
    return;
  }
  FixIt fix;
  fix.description = description;
  fix.edits.push_back(std::move(*edit));
  OrderingVerdict ordering =
      checkMoveToStream({MovedCall{&call, nullptr}}, *inScope->variable, context(),
                        perThreadBuild_);
  fix.applicable = true;
  applyOrderingVerdict(fix, ordering);
  finding.fixes.push_back(std::move(fix));
}

} // namespace streamlint
