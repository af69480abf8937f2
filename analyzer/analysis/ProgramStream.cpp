#include "analyzer/analysis/ProgramStream.h"

#include "analyzer/analysis/StreamResolution.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SetVector.h"

namespace streamlint {
namespace am = clang::ast_matchers;
namespace {

/// The streams that calls in some code pass: global variables and fields of
/// `this` (the candidates a fix can name anywhere in scope), and whether any
/// other non-constant stream (a local variable, another object's member, a
/// call result) is passed too.
struct StreamUses {
  llvm::SetVector<const clang::ValueDecl *> shared;
  bool others = false;
  bool any() const { return others || !shared.empty(); }
  void add(const StreamUses &more) {
    shared.insert(more.shared.begin(), more.shared.end());
    others |= more.others;
  }
};

/// A global (or namespace/static member) cudaStream_t variable, or a field
/// read through the implicit or explicit `this` of a method of `record`.
const clang::ValueDecl *sharedStream(const clang::Expr *argument,
                                     const clang::CXXRecordDecl *record) {
  const clang::Expr *bare = argument->IgnoreParenImpCasts();
  if (const auto *reference = llvm::dyn_cast<clang::DeclRefExpr>(bare)) {
    const auto *variable = llvm::dyn_cast<clang::VarDecl>(reference->getDecl());
    if (variable && variable->hasGlobalStorage() && !variable->isStaticLocal() &&
        !variable->getType()->isArrayType() && isStreamType(variable->getType()))
      return variable;
    return nullptr;
  }
  const auto *member = llvm::dyn_cast<clang::MemberExpr>(bare);
  if (!member || !record ||
      !llvm::isa<clang::CXXThisExpr>(member->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  const auto *field = llvm::dyn_cast<clang::FieldDecl>(member->getMemberDecl());
  if (!field || field->getParent() != record || !isStreamType(field->getType()))
    return nullptr;
  return field;
}

void collect(const clang::Stmt &body, const clang::FunctionDecl &function,
             const clang::CXXRecordDecl *record, clang::ASTContext &ast,
             StreamUses &uses) {
  for (const auto &match :
       am::match(am::findAll(am::callExpr().bind("call")), body, ast)) {
    std::optional<StreamArgumentSite> site =
        streamArgumentOf(*match.getNodeAs<clang::CallExpr>("call"));
    if (!site)
      continue;
    StreamClassification stream = classifyStreamArgument(site->argument, ast, &function);
    if (stream.kind != StreamKind::Named)
      continue; // constants: the default streams, not evidence of a created one
    if (const clang::ValueDecl *shared = sharedStream(site->argument, record))
      uses.shared.insert(shared);
    else if (!llvm::isa_and_nonnull<clang::ParmVarDecl>(stream.variable))
      uses.others = true; // a parameter forwards some caller's stream
  }
}

const clang::CXXRecordDecl *recordOf(const clang::FunctionDecl &function) {
  const auto *method = llvm::dyn_cast<clang::CXXMethodDecl>(&function);
  if (!method || method->isStatic() || method->getParent()->isLambda())
    return nullptr;
  return method->getParent();
}

/// A global stream created in this function after `site` holds nothing yet
/// at `site`.
bool readyAt(const clang::ValueDecl &stream, const clang::Stmt &site,
             const clang::FunctionDecl &function, clang::ASTContext &ast) {
  const clang::SourceManager &sm = ast.getSourceManager();
  clang::SourceLocation at = sm.getExpansionLoc(site.getBeginLoc());
  bool createdHere = false, createdBefore = false;
  for (const auto &match :
       am::match(am::findAll(am::unaryOperator(am::hasOperatorName("&"),
                                               am::hasUnaryOperand(am::ignoringParenImpCasts(
                                                   am::anyOf(am::declRefExpr(am::to(am::decl(am::equalsNode(&stream)))),
                                                             am::memberExpr(am::member(am::equalsNode(&stream)))))))
                                 .bind("taken")),
                 *function.getBody(), ast)) {
    const auto *taken = match.getNodeAs<clang::UnaryOperator>("taken");
    createdHere = true;
    createdBefore |= sm.isBeforeInTranslationUnit(sm.getExpansionLoc(taken->getBeginLoc()), at);
  }
  return !createdHere || createdBefore;
}

} // namespace

struct StreamSuggester::Uses : StreamUses {};

StreamSuggester::StreamSuggester(clang::ASTContext &ast) : ast_(ast) {}
StreamSuggester::~StreamSuggester() = default;

const StreamSuggester::Uses &
StreamSuggester::usesIn(const clang::FunctionDecl &function) {
  std::unique_ptr<Uses> &uses = functions_[&function];
  if (!uses) {
    uses = std::make_unique<Uses>();
    collect(*function.getBody(), function, recordOf(function), ast_, *uses);
  }
  return *uses;
}

const StreamSuggester::Uses &
StreamSuggester::usesInScope(const clang::CXXRecordDecl *record) {
  if (!byScope_) {
    byScope_.emplace();
    const clang::SourceManager &sm = ast_.getSourceManager();
    for (const auto &match :
         am::match(am::functionDecl(am::isDefinition(),
                                    am::unless(am::isExpansionInSystemHeader()))
                       .bind("f"),
                   ast_)) {
      const auto *function = match.getNodeAs<clang::FunctionDecl>("f");
      if (!function->hasBody() || function->isDependentContext() ||
          sm.isInSystemHeader(sm.getExpansionLoc(function->getLocation())))
        continue;
      (*byScope_)[recordOf(*function)].push_back(function);
    }
  }
  std::unique_ptr<Uses> &uses = scopes_[record];
  if (!uses) {
    uses = std::make_unique<Uses>();
    auto functions = byScope_->find(record);
    if (functions != byScope_->end())
      for (const clang::FunctionDecl *function : functions->second)
        uses->add(usesIn(*function));
  }
  return *uses;
}

std::optional<SuggestedStream> StreamSuggester::suggest(const clang::FunctionDecl &function,
                                                        const clang::Stmt &site) {
  if (!function.hasBody())
    return std::nullopt;
  if (std::optional<StreamInScope> local = uniqueStreamInScope(function, site, ast_))
    return SuggestedStream{local->variable, local->spelling,
                           "the stream this function already uses", true};
  const clang::CXXRecordDecl *record = recordOf(function);
  auto answer = [&](const StreamUses &uses, const char *evidence,
                    bool byFunction) -> std::optional<SuggestedStream> {
    if (uses.others || uses.shared.size() != 1)
      return std::nullopt;
    const clang::ValueDecl *stream = uses.shared.front();
    if (stream->getName().empty() || !readyAt(*stream, site, function, ast_))
      return std::nullopt;
    return SuggestedStream{stream, stream->getName().str(), evidence, byFunction};
  };
  const StreamUses &own = usesIn(function);
  if (own.any())
    return answer(own,
                  llvm::isa_and_nonnull<clang::FieldDecl>(
                      own.shared.empty() ? nullptr : own.shared.front())
                      ? "the member stream this function's other work runs on"
                      : "the stream this function's other work runs on",
                  true);
  // Nothing in this function: what the class's methods, or the TU's user
  // code, run their work on (a member stream is only nameable from its own
  // class's methods; a free function looks at the other free functions).
  // This function adds nothing to its scope's uses: it has none.
  return answer(usesInScope(record),
                record ? "the member stream this class's other methods run their work on"
                       : "the stream the rest of this file's work runs on",
                false);
}

bool StreamSuggester::perThreadIsTarget(const clang::FunctionDecl &function,
                                        const FunctionOperations &ops) {
  for (const StreamOperation &op : ops.operations)
    if (op.effect == OperationEffect::Enqueue && op.stream.kind == OrderingStream::Legacy)
      if (suggest(function, *op.node))
        return false;
  return true;
}

} // namespace streamlint
