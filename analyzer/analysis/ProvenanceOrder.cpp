// ProvenanceIndex, the part about order: which of a variable's definitions
// reach a use (source order, dominance within a block, loops around the
// use), flow-insensitively beyond that. The definitions themselves are
// collected in ProvenanceIndex.cpp.
#include "analyzer/analysis/ProvenanceIndex.h"
#include "analyzer/analysis/SingleRunLoop.h"
#include "analyzer/analysis/TranslationUnitContext.h"

#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>

namespace streamlint {

const clang::Stmt *parentOf(clang::ASTContext &ast, const clang::Stmt *stmt) {
  clang::DynTypedNodeList parents = ast.getParents(*stmt);
  return parents.empty() ? nullptr : parents[0].get<clang::Stmt>();
}

const clang::FunctionDecl *ProvenanceIndex::functionOf(const clang::Stmt *stmt) const {
  return enclosingFunctionOf(ast_, *stmt);
}

bool ProvenanceIndex::sameFunction(const clang::Stmt *a, const clang::Stmt *b) const {
  return functionOf(a) == functionOf(b);
}

bool ProvenanceIndex::before(const clang::Stmt *a, const clang::Stmt *b) const {
  const clang::SourceManager &sm = ast_.getSourceManager();
  return sm.isBeforeInTranslationUnit(sm.getExpansionLoc(a->getBeginLoc()),
                                      sm.getExpansionLoc(b->getBeginLoc()));
}

bool ProvenanceIndex::dominates(const clang::Stmt *def, const clang::Stmt *use) const {
  // The definition dominates when the path from it up to the enclosing
  // block crosses only expressions evaluated unconditionally, and the use
  // lies later in that block.
  const clang::Stmt *node = def;
  while (const clang::Stmt *parent = parentOf(ast_, node)) {
    if (const auto *block = llvm::dyn_cast<clang::CompoundStmt>(parent)) {
      const clang::SourceManager &sm = ast_.getSourceManager();
      clang::SourceRange range = block->getSourceRange();
      clang::SourceLocation at = sm.getExpansionLoc(use->getBeginLoc());
      return before(node, use) &&
             !sm.isBeforeInTranslationUnit(at, sm.getExpansionLoc(range.getBegin())) &&
             sm.isBeforeInTranslationUnit(at, sm.getExpansionLoc(range.getEnd()));
    }
    if (const auto *conditional = llvm::dyn_cast<clang::AbstractConditionalOperator>(parent))
      if (conditional->getCond() != node)
        return false;
    if (const auto *binary = llvm::dyn_cast<clang::BinaryOperator>(parent))
      if (binary->isLogicalOp() && binary->getLHS() != node)
        return false;
    if (!llvm::isa<clang::Expr>(parent) && !llvm::isa<clang::DeclStmt>(parent))
      return false;
    node = parent;
  }
  return false;
}

bool ProvenanceIndex::insideLoopAround(const clang::Stmt *def, const clang::Stmt *use) const {
  const clang::SourceManager &sm = ast_.getSourceManager();
  for (const clang::Stmt *node = parentOf(ast_, use); node; node = parentOf(ast_, node)) {
    if (!isRepeatingLoop(*node, ast_))
      continue;
    clang::SourceLocation at = sm.getExpansionLoc(def->getBeginLoc());
    if (!sm.isBeforeInTranslationUnit(at, sm.getExpansionLoc(node->getBeginLoc())) &&
        sm.isBeforeInTranslationUnit(at, sm.getExpansionLoc(node->getEndLoc())))
      return true;
  }
  return false;
}

std::vector<const ProvenanceIndex::Definition *>
ProvenanceIndex::reachingDefinitions(const Definitions *defs, const clang::Stmt *use) {
  std::vector<const Definition *> preceding, result;
  if (!defs)
    return result;
  for (const Definition &def : defs->list) {
    if (before(def.where, use))
      preceding.push_back(&def);
    else if (insideLoopAround(def.where, use))
      result.push_back(&def);
  }
  std::sort(preceding.begin(), preceding.end(),
            [this](const Definition *a, const Definition *b) { return before(a->where, b->where); });
  size_t first = 0;
  for (size_t i = preceding.size(); i-- > 0;)
    if (dominates(preceding[i]->where, use)) {
      first = i;
      break;
    }
  result.insert(result.end(), preceding.begin() + first, preceding.end());
  return result;
}

bool ProvenanceIndex::initialReaches(const Definitions *defs, const clang::Stmt *use) {
  if (!defs)
    return true;
  for (const Definition &def : defs->list)
    if (before(def.where, use) && dominates(def.where, use))
      return false;
  return true;
}

std::vector<const ProvenanceIndex::Definition *>
ProvenanceIndex::allDefinitions(const Definitions *defs) const {
  std::vector<const Definition *> result;
  if (defs)
    for (const Definition &def : defs->list)
      result.push_back(&def);
  return result;
}

} // namespace streamlint
