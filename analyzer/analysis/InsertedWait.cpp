// InsertedWait.h: where a fix may write the wait it needs.
#include "analyzer/analysis/InsertedWait.h"
#include "analyzer/analysis/SourceEdits.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace streamlint {

std::optional<TextEdit> insertedWait(const clang::Stmt &before, const clang::Stmt &work,
                                     const clang::ValueDecl *target,
                                     TranslationUnitContext &context) {
  clang::ASTContext &ast = context.ast();
  const clang::SourceManager &sm = ast.getSourceManager();
  clang::DynTypedNode child = clang::DynTypedNode::create(before);
  const clang::Stmt *statement = nullptr;
  std::vector<const clang::Stmt *> blocks;
  for (int guard = 0; guard < 256; ++guard) {
    auto parents = ast.getParents(child);
    if (parents.empty() || parents[0].get<clang::LambdaExpr>())
      return std::nullopt;
    const clang::Stmt *parent = parents[0].get<clang::Stmt>();
    if (!parent)
      break;
    if (llvm::isa<clang::CompoundStmt>(parent)) {
      if (!statement)
        statement = child.get<clang::Stmt>();
      blocks.push_back(parent);
    }
    child = parents[0];
  }
  if (!statement)
    return std::nullopt;
  clang::SourceLocation workBegin = sm.getExpansionLoc(work.getBeginLoc());
  clang::CharSourceRange range = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(statement->getSourceRange()), sm, ast.getLangOpts());
  if (range.isInvalid() ||
      (!sm.isBeforeInTranslationUnit(workBegin, range.getBegin()) &&
       sm.isBeforeInTranslationUnit(workBegin, range.getEnd())))
    return std::nullopt; // the statement holds the work too
  if (const auto *var = llvm::dyn_cast_or_null<clang::VarDecl>(target);
      var && !llvm::isa<clang::ParmVarDecl>(var)) {
    if (!sm.isBeforeInTranslationUnit(sm.getExpansionLoc(var->getLocation()), range.getBegin()))
      return std::nullopt;
    auto declParents = ast.getParents(*var);
    const clang::Stmt *declBlock = nullptr;
    if (!declParents.empty())
      if (const auto *declStmt = declParents[0].get<clang::DeclStmt>()) {
        auto up = ast.getParents(*declStmt);
        declBlock = up.empty() ? nullptr : up[0].get<clang::CompoundStmt>();
      }
    if (!declBlock || !llvm::is_contained(blocks, declBlock))
      return std::nullopt;
  }
  std::string call = "cudaStreamSynchronize(" +
                     (target ? target->getNameAsString() : "cudaStreamPerThread") + ");";
  bool ownLine = beginsLine(range.getBegin(), sm);
  clang::SourceLocation at = ownLine ? lineBegin(range.getBegin(), sm) : range.getBegin();
  return context.edit(clang::CharSourceRange::getCharRange(at, at),
                      ownLine ? lineIndentation(at, sm) + call + "\n" : call + " ");
}

} // namespace streamlint
