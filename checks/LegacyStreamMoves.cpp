// default-stream's moves of legacy-stream work (LegacyStreamMoves.h).
#include "checks/LegacyStreamMoves.h"
#include "analyzer/analysis/SourceFacts.h"
#include "analyzer/analysis/StreamOperations.h"
#include "api/CudaApiTable.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

namespace streamlint {
namespace {

const clang::Expr *withoutDefault(const clang::Expr *argument) {
  return llvm::isa<clang::CXXDefaultArgExpr>(argument) ? nullptr : argument;
}

/// The file range of `expr` as written, if it is text the user can edit.
std::optional<clang::CharSourceRange> writtenRange(const clang::Expr *expr,
                                                   const clang::ASTContext &ast) {
  if (!expr || expr->getBeginLoc().isInvalid())
    return std::nullopt;
  clang::CharSourceRange range = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(expr->getSourceRange()),
      ast.getSourceManager(), ast.getLangOpts());
  if (range.isInvalid())
    return std::nullopt;
  return range;
}

/// A default stream (omitted or 0) that is the legacy one: not in a
/// per-thread-default-stream build, not a `*_ptsz` API.
bool legacyDefault(StreamKind kind, const clang::FunctionDecl *callee, bool perThreadBuild) {
  if (kind != StreamKind::Omitted && kind != StreamKind::Null)
    return false;
  if (perThreadBuild)
    return false;
  return !(callee && callee->getIdentifier() && api::parseApiName(callee->getName()).perThread);
}

bool takesStreamArgument(const api::ApiInfo &info) {
  return api::isStreamOrderedWork(info) && info.streamIndex >= 0;
}

} // namespace

std::optional<TextEdit> legacyStreamEdit(const clang::CallExpr &call,
                                         const StreamArgumentSite &site,
                                         const std::string &stream,
                                         TranslationUnitContext &context) {
  const clang::ASTContext &ast = context.ast();
  const clang::SourceManager &sm = ast.getSourceManager();
  if (!writtenInFile(call.getBeginLoc(), sm) || !writtenInFile(call.getEndLoc(), sm))
    return std::nullopt;
  std::optional<clang::CharSourceRange> whole = writtenRange(&call, ast);
  if (!whole)
    return std::nullopt;
  auto insideCall = [&](const clang::CharSourceRange &range) {
    return !sm.isBeforeInTranslationUnit(range.getBegin(), whole->getBegin()) &&
           !sm.isBeforeInTranslationUnit(whole->getEnd(), range.getEnd());
  };
  if (const clang::Expr *written = withoutDefault(site.argument)) {
    std::optional<clang::CharSourceRange> range = writtenRange(written, ast);
    if (!range || !insideCall(*range))
      return std::nullopt;
    return context.edit(*range, stream);
  }
  // Omitted: insert after the last argument written before the stream.
  const clang::Expr *anchor = nullptr;
  std::string text = ", " + stream;
  if (site.isKernelLaunch) {
    const clang::CallExpr *config =
        llvm::cast<clang::CUDAKernelCallExpr>(call).getConfig();
    anchor = withoutDefault(config->getArg(2));
    if (!anchor) {
      anchor = withoutDefault(config->getArg(1));
      text = ", 0" + text; // the shared-memory size comes before the stream
    }
  } else if (site.index > 0) {
    for (unsigned i = 0; i < site.index; ++i)
      if (!withoutDefault(call.getArg(i)))
        return std::nullopt; // other defaults come first: spelling them is a guess
    anchor = call.getArg(site.index - 1);
  }
  std::optional<clang::CharSourceRange> range = writtenRange(anchor, ast);
  if (!range || !insideCall(*range))
    return std::nullopt;
  return context.edit(
      clang::CharSourceRange::getCharRange(range->getEnd(), range->getEnd()), text);
}

std::optional<LegacyStreamMove> legacyStreamMove(const clang::CallExpr &call,
                                                 const clang::FunctionDecl &function,
                                                 const clang::VarDecl *target,
                                                 StreamSuggester &suggester,
                                                 TranslationUnitContext &context,
                                                 bool perThreadBuild) {
  clang::ASTContext &ast = context.ast();
  std::optional<SuggestedStream> inScope = suggester.suggest(function, call);
  if (target ? (!inScope || !inScope->usedByFunction || inScope->stream != target) : bool(inScope))
    return std::nullopt;
  std::string spelling = target ? inScope->spelling : "cudaStreamPerThread";
  const clang::FunctionDecl *callee = call.getDirectCallee();
  bool launch = llvm::isa<clang::CUDAKernelCallExpr>(call);
  const api::ApiInfo *info =
      callee && callee->getIdentifier() ? api::findApi(apiNameAsWritten(*callee)) : nullptr;
  if (launch || (info && takesStreamArgument(*info))) {
    std::optional<StreamArgumentSite> site = streamArgumentOf(call);
    if (!site)
      return std::nullopt;
    StreamClassification stream = classifyStreamArgument(site->argument, ast, &function);
    if (!legacyDefault(stream.kind, launch ? nullptr : callee, perThreadBuild))
      return std::nullopt;
    std::optional<TextEdit> edit = legacyStreamEdit(call, *site, spelling, context);
    if (!edit)
      return std::nullopt;
    return LegacyStreamMove{MovedCall{&call, nullptr}, std::move(*edit)};
  }
  if (!callee || context.sources().isInSystemHeader(callee->getLocation()))
    return std::nullopt;
  for (unsigned i = 0; i < call.getNumArgs() && i < callee->getNumParams(); ++i) {
    const auto *fallback = llvm::dyn_cast<clang::CXXDefaultArgExpr>(call.getArg(i));
    if (!fallback || !isStreamType(fallback->getParam()->getType()))
      continue;
    StreamClassification stream = classifyStreamArgument(fallback, ast);
    if (!legacyDefault(stream.kind, nullptr, perThreadBuild) ||
        !streamUseOfParameter(*callee, i))
      return std::nullopt;
    std::optional<TextEdit> edit =
        legacyStreamEdit(call, StreamArgumentSite{fallback, i, false}, spelling, context);
    if (!edit)
      return std::nullopt;
    return LegacyStreamMove{MovedCall{&call, fallback->getParam()}, std::move(*edit)};
  }
  return std::nullopt;
}

bool usesStreamVariable(const StreamOperation &op) {
  return (op.effect == OperationEffect::Enqueue || op.effect == OperationEffect::HostWaitsStream) &&
         (op.stream.kind == OrderingStream::Variable || op.stream.kind == OrderingStream::Unknown);
}

std::vector<LegacyStreamMove> perThreadMoves(const clang::FunctionDecl &function,
                                             const FunctionOperations &ops,
                                             StreamSuggester &suggester,
                                             TranslationUnitContext &context,
                                             bool perThreadBuild) {
  std::vector<LegacyStreamMove> moves;
  if (perThreadBuild || llvm::any_of(ops.operations, usesStreamVariable) ||
      !suggester.perThreadIsTarget(function, ops))
    return moves;
  for (const StreamOperation &op : ops.operations)
    if (const auto *call = llvm::dyn_cast<clang::CallExpr>(op.node))
      if (std::optional<LegacyStreamMove> move =
              legacyStreamMove(*call, function, nullptr, suggester, context, perThreadBuild))
        moves.push_back(std::move(*move));
  return moves;
}

} // namespace streamlint
