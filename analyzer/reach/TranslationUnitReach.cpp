#include "analyzer/reach/TranslationUnitReach.h"

#include "analyzer/analysis/StreamResolution.h"

#include "analyzer/reach/CudaApi.h"
#include "api/CudaApiTable.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Index/USRGeneration.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

#include <map>

namespace streamlint::reach {
TranslationUnitReach::TranslationUnitReach(TranslationUnitContext &context)
    : context_(context) {
  summary_.mainFile = context.info().mainFile;
}

TranslationUnitReach::~TranslationUnitReach() = default;

const LoopFacts &TranslationUnitReach::loop(const clang::Stmt *loop) const {
  return summary_.loops[loopIndex_.lookup(loop)];
}

std::vector<SourcePoint> TranslationUnitReach::loopPoints(const CallSite &site) const {
  std::vector<SourcePoint> points;
  for (const clang::Stmt *enclosing : site.loops)
    points.push_back(loop(enclosing).location);
  return points;
}

std::vector<const CallSite *>
TranslationUnitReach::callsInLoop(const clang::Stmt *loop) const {
  std::vector<const CallSite *> result;
  for (const CallSite &site : calls_)
    if (llvm::is_contained(site.loops, loop))
      result.push_back(&site);
  return result;
}

const clang::ValueDecl *
TranslationUnitReach::uniqueStream(const clang::Stmt *loop,
                                   llvm::ArrayRef<const clang::Expr *> ignored) const {
  const clang::ValueDecl *stream = nullptr;
  for (const CallSite *site : callsInLoop(loop)) {
    if (llvm::is_contained(ignored, site->expr) || site->opaque)
      continue;
    if (site->userCall || !site->call)
      return nullptr;
    if (const api::ApiInfo *row = api::findApi(site->name); row && row->errorState)
      continue; // reads the error state: no stream work
    std::optional<StreamArgumentSite> argument = streamArgumentOf(*site->call);
    const clang::ValueDecl *used =
        argument ? classifyStreamArgument(argument->argument, context_.ast()).variable
                 : nullptr;
    if (!used || (stream && used != stream))
      return nullptr;
    stream = used;
  }
  if (stream && !context_.sources().isBeforeInTranslationUnit(
                    stream->getLocation(), loop->getBeginLoc()))
    return nullptr;
  return stream;
}

std::optional<Finding>
TranslationUnitReach::pendingFinding(llvm::StringRef checkId, const CallSite &site,
                                     std::string message) const {
  if (context_.inSystemHeader(site.expr->getBeginLoc()))
    return std::nullopt;
  Finding finding = context_.makeFinding(checkId, Severity::Warning,
                                         site.expr->getSourceRange(), std::move(message));
  // The caller is known: no need for the parent map report() walks.
  if (site.caller)
    finding.function = site.caller->getQualifiedNameAsString();
  return finding;
}

TranslationUnitSummary TranslationUnitReach::takeSummary() {
  TranslationUnitSummary summary = std::move(summary_);
  summary_ = TranslationUnitSummary();
  return summary;
}

std::string functionUsr(const clang::FunctionDecl &function) {
  const clang::FunctionDecl *pattern = &function;
  while (const clang::FunctionDecl *next = pattern->getTemplateInstantiationPattern()) {
    if (next == pattern)
      break;
    pattern = next;
  }
  llvm::SmallString<128> usr;
  if (!clang::index::generateUSRForDecl(pattern->getCanonicalDecl(), usr))
    return std::string(usr);
  // No USR (some local classes' members): key by where it is written,
  // which is the same in every TU that includes it.
  const clang::SourceManager &sources = function.getASTContext().getSourceManager();
  clang::SourceLocation location = sources.getExpansionLoc(pattern->getLocation());
  if (location.isInvalid())
    return "";
  return "streamlint:" + sources.getFilename(location).str() + "@" +
         std::to_string(sources.getFileOffset(location));
}

std::string functionName(const clang::FunctionDecl &function,
                         const TranslationUnitContext &context) {
  if (const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(&function))
    if (method->getParent()->isLambda()) {
      SourcePoint where = context.point(method->getParent()->getLocation());
      return "lambda at " + llvm::sys::path::filename(where.file).str() + ":" +
             std::to_string(where.line);
    }
  return function.getQualifiedNameAsString();
}

} // namespace streamlint::reach
