#include "checks/AllocInLoopCheck.h"

#include "analyzer/reach/CudaApi.h"
#include "api/CudaApiTable.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/AST/StmtCXX.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"

#include <functional>

using namespace clang::ast_matchers;

namespace streamlint {
namespace {

/// `&p` / `(void **)&p` (allocations) or `p` (frees) -> p.
const clang::VarDecl *bufferVariable(const clang::Expr *argument, bool addressOf) {
  if (!argument)
    return nullptr;
  const clang::Expr *bare = argument->IgnoreParenCasts();
  if (addressOf) {
    const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(bare);
    if (!unary || unary->getOpcode() != clang::UO_AddrOf)
      return nullptr;
    bare = unary->getSubExpr()->IgnoreParenCasts();
  }
  const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(bare);
  return ref ? llvm::dyn_cast<clang::VarDecl>(ref->getDecl()) : nullptr;
}

/// The free that releases what `alloc` allocates: cudaMalloc -> cudaFree.
/// Runtime allocations only: the fixes below rewrite runtime calls.
llvm::StringRef pairedFree(llvm::StringRef alloc) {
  const api::ApiInfo *info = api::findApi(alloc);
  if (!info || info->family != api::Family::Runtime)
    return "";
  return llvm::StringRef(info->pairedFree.data(), info->pairedFree.size());
}

const clang::Stmt *loopBody(const clang::Stmt *loop) {
  if (const auto *s = llvm::dyn_cast<clang::ForStmt>(loop)) return s->getBody();
  if (const auto *s = llvm::dyn_cast<clang::WhileStmt>(loop)) return s->getBody();
  if (const auto *s = llvm::dyn_cast<clang::DoStmt>(loop)) return s->getBody();
  if (const auto *s = llvm::dyn_cast<clang::CXXForRangeStmt>(loop)) return s->getBody();
  return nullptr;
}

/// The statement of the loop's `{ ... }` body that holds `expr`; nullptr when
/// `expr` is nested in a branch (hoisting it would change what runs).
const clang::Stmt *bodyStatement(clang::ASTContext &ast, const clang::Stmt *expr,
                                 const clang::Stmt *loop) {
  const auto *body = llvm::dyn_cast_or_null<clang::CompoundStmt>(loopBody(loop));
  if (!body)
    return nullptr;
  const clang::Stmt *current = expr;
  while (true) {
    clang::DynTypedNodeList parents = ast.getParents(*current);
    if (parents.empty())
      return nullptr;
    const auto *parent = parents[0].get<clang::Stmt>();
    if (!parent || llvm::isa<clang::IfStmt, clang::SwitchStmt, clang::ConditionalOperator,
                             clang::BinaryConditionalOperator>(parent))
      return nullptr;
    if (parent == body)
      return current;
    if (llvm::isa<clang::CompoundStmt>(parent) || parent == loop)
      return nullptr;
    current = parent;
  }
}

/// Variables the loop writes or lets escape, outside `ignored`.
void writtenVariables(const clang::Stmt *stmt, const clang::Stmt *ignored,
                      llvm::SmallPtrSetImpl<const clang::Decl *> &written) {
  if (!stmt || stmt == ignored)
    return;
  const clang::Expr *target = nullptr;
  if (const auto *binary = llvm::dyn_cast<clang::BinaryOperator>(stmt))
    if (binary->isAssignmentOp())
      target = binary->getLHS();
  if (const auto *unary = llvm::dyn_cast<clang::UnaryOperator>(stmt))
    if (unary->isIncrementDecrementOp() || unary->getOpcode() == clang::UO_AddrOf)
      target = unary->getSubExpr();
  if (target)
    if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(target->IgnoreParenImpCasts()))
      written.insert(ref->getDecl());
  for (const clang::Stmt *child : stmt->children())
    writtenVariables(child, ignored, written);
}

/// No calls, no variables declared in the loop or written by it.
bool loopInvariant(const clang::Stmt *expr, const clang::Stmt *loop,
                   const llvm::SmallPtrSetImpl<const clang::Decl *> &written,
                   const clang::SourceManager &sources) {
  if (!expr)
    return true;
  if (llvm::isa<clang::CallExpr>(expr))
    return false;
  if (const auto *ref = llvm::dyn_cast<clang::DeclRefExpr>(expr)) {
    const clang::ValueDecl *decl = ref->getDecl();
    if (written.contains(decl))
      return false;
    if (llvm::isa<clang::VarDecl>(decl) &&
        !sources.isBeforeInTranslationUnit(decl->getLocation(), loop->getBeginLoc()))
      return false;
  }
  if (llvm::isa<clang::UnaryExprOrTypeTraitExpr>(expr)) // sizeof(x)
    return true;
  for (const clang::Stmt *child : expr->children())
    if (!loopInvariant(child, loop, written, sources))
      return false;
  return true;
}

/// File offsets of a statement including its ';', and of its whole line
/// when the statement is alone on it.
struct StatementText {
  clang::SourceLocation begin, end;          // [begin, end) incl. ';'
  clang::SourceLocation lineBegin, lineEnd;  // the line incl. its newline
  std::string text;
};

std::optional<StatementText> statementText(const clang::Stmt *stmt,
                                           const clang::ASTContext &ast) {
  const clang::SourceManager &sm = ast.getSourceManager();
  clang::CharSourceRange range = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(stmt->getSourceRange()), sm,
      ast.getLangOpts());
  if (range.isInvalid())
    return std::nullopt;
  clang::SourceLocation end = range.getEnd();
  if (llvm::isa<clang::Expr>(stmt)) {
    std::optional<clang::Token> next =
        clang::Lexer::findNextToken(end.getLocWithOffset(-1), sm, ast.getLangOpts());
    if (!next || !next->is(clang::tok::semi))
      return std::nullopt;
    end = next->getEndLoc();
  }
  auto [file, beginOffset] = sm.getDecomposedLoc(range.getBegin());
  unsigned endOffset = sm.getFileOffset(end);
  llvm::StringRef buffer = sm.getBufferData(file);
  unsigned lineBegin = beginOffset, lineEnd = endOffset;
  while (lineBegin > 0 && (buffer[lineBegin - 1] == ' ' || buffer[lineBegin - 1] == '\t'))
    --lineBegin;
  while (lineEnd < buffer.size() && (buffer[lineEnd] == ' ' || buffer[lineEnd] == '\t'))
    ++lineEnd;
  if ((lineBegin > 0 && buffer[lineBegin - 1] != '\n') ||
      lineEnd >= buffer.size() || buffer[lineEnd] != '\n')
    return std::nullopt;
  clang::SourceLocation start = sm.getLocForStartOfFile(file);
  return StatementText{range.getBegin(), end, start.getLocWithOffset(lineBegin),
                       start.getLocWithOffset(lineEnd + 1),
                       buffer.slice(beginOffset, endOffset).str()};
}

std::string lineIndent(clang::SourceLocation location, const clang::SourceManager &sm) {
  auto [file, offset] = sm.getDecomposedLoc(sm.getExpansionLoc(location));
  llvm::StringRef buffer = sm.getBufferData(file);
  unsigned lineBegin = offset;
  while (lineBegin > 0 && buffer[lineBegin - 1] != '\n')
    --lineBegin;
  llvm::StringRef line = buffer.substr(lineBegin);
  return line.take_while([](char c) { return c == ' ' || c == '\t'; }).str();
}

} // namespace

RuleInfo AllocInLoopCheck::rule() {
  RuleInfo rule;
  rule.id = "alloc-in-loop";
  rule.shortDescription = "CUDA allocation and free every loop iteration";
  rule.fullDescription =
      "cudaMalloc, cudaFree, cudaMallocHost, cudaHostRegister and friends are "
      "driver round trips, and cudaFree/cudaFreeHost (and often cudaMalloc) "
      "implicitly synchronize the whole device. A loop that allocates and "
      "frees every iteration, directly or through calls in any translation "
      "unit, pays that and stalls all streams each time.";
  rule.helpText = "Allocate once before the loop and free after it, reusing "
                  "the buffer; or use cudaMallocAsync/cudaFreeAsync on a "
                  "stream (stream-ordered pool).";
  rule.helpUri = "docs/checks/alloc-in-loop.md";
  return rule;
}

AllocInLoopCheck::AllocInLoopCheck(TranslationUnitContext &context)
    : Check(rule().id, context),
      extraAllocFunctions_(option("ExtraAllocFunctions", "")),
      extraFreeFunctions_(option("ExtraFreeFunctions", "")),
      extraAlloc_(reach::parseNameList(extraAllocFunctions_)),
      extraFree_(reach::parseNameList(extraFreeFunctions_)) {}

std::vector<OptionSpec> AllocInLoopCheck::options() {
  return {{"ExtraAllocFunctions", OptionType::NameList, "", {}, "",
           "functions that allocate like cudaMalloc (pool wrappers), ';'-separated"},
          {"ExtraFreeFunctions", OptionType::NameList, "", {}, "",
           "functions that free like cudaFree, ';'-separated"}};
}

/// The API's allocation bits, plus this check's ExtraAllocFunctions and
/// ExtraFreeFunctions (which never reach the shared call graph).
unsigned AllocInLoopCheck::kindsOf(const reach::CallSite &site) const {
  if (!site.steadyState)
    return reach::NoApi; // error handling, lazy initialization: runs once
  llvm::StringRef base = api::baseName(site.name);
  unsigned kinds = site.kinds & (reach::Allocates | reach::Frees);
  if (extraAlloc_.contains(site.name) || extraAlloc_.contains(base))
    kinds = reach::Allocates;
  if (extraFree_.contains(site.name) || extraFree_.contains(base))
    kinds |= reach::Frees;
  return kinds;
}

// The reach analysis already visited every call; see DeviceSyncCheck.
void AllocInLoopCheck::checkCallGraph(reach::TranslationUnitReach &callGraph) {
  reach_ = &callGraph;
  for (const reach::CallSite &site : callGraph.calls()) {
    // A configured wrapper counts as the allocation itself: its body's
    // cudaMalloc is reported at the wrapper's calls, not a second time.
    if (site.caller && site.caller->getIdentifier() &&
        (extraAlloc_.contains(site.caller->getName()) ||
         extraFree_.contains(site.caller->getName())))
      continue;
    if (kindsOf(site))
      checkCall(site);
  }
}

void AllocInLoopCheck::checkCall(const reach::CallSite &site) {
  bool allocates = kindsOf(site) & reach::Allocates;
  llvm::StringRef name = api::baseName(site.name);
  std::string message =
      "'" + name.str() + "' " + (allocates ? "allocates" : "frees") +
      " every iteration {where} (the loop both allocates and frees): each call "
      "is a driver round trip" +
      (name.contains("Host") ? ", pinning or unpinning host pages" : "") +
      ", and allocation calls implicitly synchronize the device, stalling "
      "every stream; allocate once outside the loop and reuse the buffer, or "
      "use cudaMallocAsync/cudaFreeAsync on a stream";
  std::optional<Finding> finding = reach_->pendingFinding(id(), site, message);
  if (!finding)
    return;
  if (allocates && !site.loops.empty())
    if (const reach::CallSite *free = matchingFree(site)) {
      if (std::optional<FixIt> fix = hoistFix(site, *free))
        finding->fixes.push_back(std::move(*fix));
      if (std::optional<FixIt> fix = asyncFix(site, *free))
        finding->fixes.push_back(std::move(*fix));
    }
  // Whether the loop churns (allocates and frees) may depend on functions
  // in other TUs: the whole-program pass decides, set-up and teardown loops
  // (only allocations, or only frees) are dropped there.
  reach::PendingSite pending;
  pending.finding = std::move(*finding);
  pending.function = site.callerUsr;
  pending.loops = reach_->loopPoints(site);
  pending.root = reach::ReachRoot::ChurningLoop;
  for (const auto &name : extraAlloc_)
    pending.allocatingCalls.push_back(name.getKey().str());
  for (const auto &name : extraFree_)
    pending.freeingCalls.push_back(name.getKey().str());
  llvm::sort(pending.allocatingCalls);
  llvm::sort(pending.freeingCalls);
  reach_->defer(std::move(pending));
}

const reach::CallSite *AllocInLoopCheck::matchingFree(const reach::CallSite &alloc) const {
  llvm::StringRef freeName = pairedFree(api::baseName(alloc.name));
  if (!alloc.call || freeName.empty() || alloc.call->getNumArgs() < 2)
    return nullptr;
  const clang::VarDecl *buffer = bufferVariable(alloc.call->getArg(0), true);
  if (!buffer)
    return nullptr;
  const clang::Stmt *loop = alloc.loops.front();
  const reach::CallSite *found = nullptr;
  for (const reach::CallSite *site : reach_->callsInLoop(loop)) {
    if (!site->call || site->call->getNumArgs() < 1 || site == &alloc ||
        !kindsOf(*site))
      continue; // kernels and copies may use the buffer freely
    bool sameBuffer = bufferVariable(site->call->getArg(0), false) == buffer ||
                      bufferVariable(site->call->getArg(0), true) == buffer;
    if (!sameBuffer)
      continue;
    // Exactly one free of the buffer in the same innermost loop, nothing
    // else allocating into it.
    if (found || site->loops.front() != loop ||
        llvm::StringRef(api::baseName(site->name)) != freeName)
      return nullptr;
    found = site;
  }
  return found;
}

/// Allocation before the loop, free after it, when the size is
/// loop-invariant and both are plain statements of the loop body.
std::optional<FixIt> AllocInLoopCheck::hoistFix(const reach::CallSite &alloc,
                                                const reach::CallSite &free) const {
  clang::ASTContext &ast = context().ast();
  const clang::SourceManager &sm = context().sources();
  const clang::Stmt *loop = alloc.loops.front();
  const clang::VarDecl *buffer = bufferVariable(alloc.call->getArg(0), true);
  if (!sm.isBeforeInTranslationUnit(buffer->getLocation(), loop->getBeginLoc()))
    return std::nullopt;
  llvm::SmallPtrSet<const clang::Decl *, 8> written;
  writtenVariables(loop, alloc.call, written);
  if (written.contains(buffer))
    return std::nullopt;
  for (unsigned i = 1; i < alloc.call->getNumArgs(); ++i)
    if (!loopInvariant(alloc.call->getArg(i), loop, written, sm))
      return std::nullopt;
  const clang::Stmt *allocStmt = bodyStatement(ast, alloc.call, loop);
  const clang::Stmt *freeStmt = bodyStatement(ast, free.call, loop);
  if (!allocStmt || !freeStmt ||
      !sm.isBeforeInTranslationUnit(allocStmt->getBeginLoc(), freeStmt->getBeginLoc()))
    return std::nullopt;
  std::optional<StatementText> allocText = statementText(allocStmt, ast);
  std::optional<StatementText> freeText = statementText(freeStmt, ast);
  if (!allocText || !freeText)
    return std::nullopt;
  clang::CharSourceRange loopRange = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(loop->getSourceRange()), sm, ast.getLangOpts());
  if (loopRange.isInvalid())
    return std::nullopt;
  clang::SourceLocation loopEnd = loopRange.getEnd();
  if (llvm::isa<clang::DoStmt>(loop)) { // do { } while (c);
    std::optional<clang::Token> semi =
        clang::Lexer::findNextToken(loopEnd.getLocWithOffset(-1), sm, ast.getLangOpts());
    if (!semi || !semi->is(clang::tok::semi))
      return std::nullopt;
    loopEnd = semi->getEndLoc();
  }
  std::string indent = lineIndent(loop->getBeginLoc(), sm);
  auto at = [](clang::SourceLocation a, clang::SourceLocation b) {
    return clang::CharSourceRange::getCharRange(a, b);
  };
  FixIt fix;
  fix.description = "allocate '" + buffer->getNameAsString() +
                    "' once before the loop and free it after the loop";
  for (std::optional<TextEdit> edit :
       {context().edit(at(loopRange.getBegin(), loopRange.getBegin()),
                       allocText->text + "\n" + indent),
        context().edit(at(allocText->lineBegin, allocText->lineEnd), ""),
        context().edit(at(freeText->lineBegin, freeText->lineEnd), ""),
        context().edit(at(loopEnd, loopEnd), "\n" + indent + freeText->text)}) {
    if (!edit)
      return std::nullopt;
    fix.edits.push_back(std::move(*edit));
  }
  return fix;
}

/// Advice only: stream-ordered allocation on the loop's one stream. Not
/// applied automatically because the memory then belongs to that stream's
/// order: other streams and host access need an event or a sync first, and
/// without a pool release threshold the pool may still return memory to the
/// driver at each synchronization.
std::optional<FixIt> AllocInLoopCheck::asyncFix(const reach::CallSite &alloc,
                                                const reach::CallSite &free) const {
  if (api::baseName(alloc.name) != "cudaMalloc" || api::baseName(free.name) != "cudaFree")
    return std::nullopt;
  const clang::ValueDecl *stream =
      reach_->uniqueStream(alloc.loops.front(), {alloc.expr, free.expr});
  if (!stream)
    return std::nullopt;
  auto argumentsText = [&](const clang::CallExpr *call) {
    std::string text;
    for (const clang::Expr *argument : call->arguments())
      text += context().normalizedText(argument->getSourceRange()) + ", ";
    return text + stream->getNameAsString();
  };
  FixIt fix;
  fix.description = "use stream-ordered cudaMallocAsync/cudaFreeAsync on '" +
                    stream->getNameAsString() +
                    "' (memory is then ordered on that stream; synchronize "
                    "before using it elsewhere)";
  fix.applicable = false;
  for (const clang::CallExpr *call : {alloc.call, free.call}) {
    std::optional<TextEdit> edit = context().edit(
        clang::CharSourceRange::getTokenRange(call->getSourceRange()),
        (call == alloc.call ? "cudaMallocAsync(" : "cudaFreeAsync(") +
            argumentsText(call) + ")");
    if (!edit)
      return std::nullopt;
    fix.edits.push_back(std::move(*edit));
  }
  return fix;
}

} // namespace streamlint
