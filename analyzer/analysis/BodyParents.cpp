#include "analyzer/analysis/BodyParents.h"
#include "analyzer/analysis/AnalysisScope.h"

#include "clang/AST/DeclFriend.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Basic/SourceManager.h"

#include <algorithm>
#include <cstdlib>

namespace streamlint {
namespace {

thread_local BodyParents *current = nullptr;
thread_local clang::ASTContext *currentAst = nullptr;

/// Declarations whose children the whole-TU walk reaches as children of
/// theirs: each child is a declaration of its own in the index.
bool isContainer(const clang::Decl &decl) {
  return llvm::isa<clang::NamespaceDecl, clang::LinkageSpecDecl, clang::ExportDecl,
                   clang::RecordDecl, clang::ClassTemplateDecl,
                   clang::FunctionTemplateDecl>(decl);
}

} // namespace

BodyParents::BodyParents(clang::ASTContext &ast) : ast_(ast), previous_(current) {
  clang::DynTypedNode unit = clang::DynTypedNode::create(*ast.getTranslationUnitDecl());
  if (traversesWholeTranslationUnit(ast)) {
    for (clang::Decl *decl : ast.getTranslationUnitDecl()->decls())
      collect(decl, unit);
  } else {
    for (clang::Decl *decl : ast.getTraversalScope())
      collect(decl, unit);
  }
  indexSpans();
  previousAst_ = currentAst;
  current = this;
  currentAst = &ast;
}

BodyParents::~BodyParents() {
  current = previous_;
  currentAst = previousAst_;
}

/// Mirrors RecursiveASTVisitor's walk (shouldVisitTemplateInstantiations,
/// as clang's parent map walks), recording each declaration down to those
/// that are not containers, and where the walk met it.
void BodyParents::collect(clang::Decl *decl, const clang::DynTypedNode &parent) {
  if (traversedThroughItsExpression(*decl))
    return;
  addRoot(decl, parent, isContainer(*decl));
  if (auto *befriended = llvm::dyn_cast<clang::FriendDecl>(decl)) {
    // A template first declared as a friend: the walk meets its
    // instantiations there (below the friend's map, whose range is the
    // friend declaration's); each is a root of its own as well.
    clang::NamedDecl *named = befriended->getFriendDecl();
    if (named && llvm::isa<clang::ClassTemplateDecl, clang::FunctionTemplateDecl>(named))
      collectInstantiations(named, clang::DynTypedNode::create(*named));
    return;
  }
  if (!isContainer(*decl))
    return;
  clang::DynTypedNode self = clang::DynTypedNode::create(*decl);
  if (auto *classTemplate = llvm::dyn_cast<clang::ClassTemplateDecl>(decl)) {
    collect(classTemplate->getTemplatedDecl(), self);
    collectInstantiations(classTemplate, self);
    return;
  }
  if (auto *functionTemplate = llvm::dyn_cast<clang::FunctionTemplateDecl>(decl)) {
    collect(functionTemplate->getTemplatedDecl(), self);
    collectInstantiations(functionTemplate, self);
    return;
  }
  for (clang::Decl *child : llvm::cast<clang::DeclContext>(decl)->decls())
    collect(child, self);
}

/// RecursiveASTVisitor::TraverseTemplateInstantiations, from the canonical
/// declaration only, as the walk does.
void BodyParents::collectInstantiations(clang::NamedDecl *templated,
                                        const clang::DynTypedNode &self) {
  if (auto *classTemplate = llvm::dyn_cast<clang::ClassTemplateDecl>(templated)) {
    if (classTemplate != classTemplate->getCanonicalDecl())
      return;
    for (clang::ClassTemplateSpecializationDecl *specialization :
         classTemplate->specializations())
      for (clang::Decl *redeclaration : specialization->redecls()) {
        auto kind = llvm::cast<clang::ClassTemplateSpecializationDecl>(redeclaration)
                        ->getSpecializationKind();
        if (kind == clang::TSK_Undeclared || kind == clang::TSK_ImplicitInstantiation)
          collect(redeclaration, self);
      }
    return;
  }
  auto *functionTemplate = llvm::cast<clang::FunctionTemplateDecl>(templated);
  if (functionTemplate != functionTemplate->getCanonicalDecl())
    return;
  for (clang::FunctionDecl *specialization : functionTemplate->specializations())
    for (clang::FunctionDecl *redeclaration : specialization->redecls())
      if (redeclaration->getTemplateSpecializationKind() != clang::TSK_ExplicitSpecialization)
        addRoot(redeclaration, self, false);
}

void BodyParents::addRoot(clang::Decl *decl, const clang::DynTypedNode &parent,
                          bool container) {
  auto [at, added] = rootIndex_.try_emplace(decl, static_cast<unsigned>(roots_.size()));
  if (added) {
    roots_.push_back({decl, {parent}, container});
    return;
  }
  std::vector<clang::DynTypedNode> &parents = roots_[at->second].parents;
  if (std::find(parents.begin(), parents.end(), parent) == parents.end())
    parents.push_back(parent);
}

void BodyParents::indexSpans() {
  const clang::SourceManager &sm = ast_.getSourceManager();
  for (unsigned i = 0; i < roots_.size(); ++i) {
    // A namespace's map would be most of the TU: only its members are
    // looked in. A class template's (all its instantiations) last.
    const clang::Decl *decl = roots_[i].decl;
    if (llvm::isa<clang::NamespaceDecl, clang::LinkageSpecDecl, clang::ExportDecl>(decl))
      continue;
    SpanIndex &index = !roots_[i].container                       ? leaves_
                       : llvm::isa<clang::ClassTemplateDecl>(decl) ? classTemplates_
                                                                   : containers_;
    clang::SourceRange range = roots_[i].decl->getSourceRange();
    if (range.isInvalid())
      continue;
    clang::SourceLocation begin = sm.getExpansionLoc(range.getBegin());
    clang::SourceLocation end = sm.getExpansionRange(range.getEnd()).getEnd();
    if (begin.isInvalid() || end.isInvalid())
      continue;
    auto [beginFile, beginOffset] = sm.getDecomposedLoc(begin);
    auto [endFile, endOffset] = sm.getDecomposedLoc(end);
    if (beginFile != endFile || endOffset < beginOffset)
      continue;
    index.spans[beginFile].push_back({beginOffset, endOffset, i});
  }
  leaves_.finish();
  containers_.finish();
  classTemplates_.finish();
}

void BodyParents::SpanIndex::finish() {
  for (auto &[file, inFile] : spans) {
    std::stable_sort(inFile.begin(), inFile.end(),
                     [](const Span &a, const Span &b) { return a.begin < b.begin; });
    std::vector<unsigned> &largest = maxEnd[file];
    largest.reserve(inFile.size());
    unsigned end = 0;
    for (const Span &span : inFile)
      largest.push_back(end = std::max(end, span.end));
  }
}

void BodyParents::SpanIndex::holding(clang::FileID file, unsigned offset,
                                     llvm::SmallVectorImpl<unsigned> &roots) const {
  auto found = spans.find(file);
  if (found == spans.end())
    return;
  const std::vector<Span> &inFile = found->second;
  const std::vector<unsigned> &largest = maxEnd.find(file)->second;
  size_t after = std::upper_bound(inFile.begin(), inFile.end(), offset,
                                  [](unsigned at, const Span &span) { return at < span.begin; }) -
                 inFile.begin();
  for (size_t i = after; i > 0 && largest[i - 1] >= offset; --i)
    if (inFile[i - 1].end >= offset)
      roots.push_back(inFile[i - 1].root);
  llvm::sort(roots);
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
}

clang::ParentMapContext &BodyParents::mapOf(unsigned root) {
  std::unique_ptr<clang::ParentMapContext> &slot = maps_[root];
  if (!slot) {
    // clang's ParentMapContext maps the traversal scope: made the one
    // declaration while the map is built, then put back. Both assignments
    // fit the scope's storage, so a walk of the scope in progress (a
    // matcher's callback asking) reads the same declarations after.
    llvm::ArrayRef<clang::Decl *> scope = ast_.getTraversalScope();
    std::vector<clang::Decl *> saved(scope.begin(), scope.end());
    ast_.setTraversalScope({roots_[root].decl});
    slot = std::make_unique<clang::ParentMapContext>(ast_);
    slot->getParents(clang::DynTypedNode::create(*roots_[root].decl)); // builds it
    ast_.setTraversalScope(saved);
  }
  return *slot;
}

clang::DynTypedNodeList BodyParents::wholeTranslationUnit(const clang::DynTypedNode &node) {
  ++fallbacks_;
  if (std::getenv("STREAMLINT_DEBUG_PARENTS") && fallbacks_ < 20) {
    llvm::errs() << "fallback: " << node.getNodeKind().asStringRef() << " at ";
    node.getSourceRange().getBegin().print(llvm::errs(), ast_.getSourceManager());
    llvm::errs() << "\n";
  }
  if (!whole_) {
    // Built once from here on: setting the traversal scope again (mapOf)
    // would throw it away.
    whole_ = true;
    maps_.clear();
  }
  return ast_.getParents(node);
}

clang::DynTypedNodeList BodyParents::parents(const clang::DynTypedNode &node) {
  if (whole_)
    return wholeTranslationUnit(node);
  if (const auto *decl = node.get<clang::Decl>()) {
    if (llvm::isa<clang::TranslationUnitDecl>(decl))
      return llvm::ArrayRef<clang::DynTypedNode>();
    auto root = rootIndex_.find(decl);
    if (root != rootIndex_.end())
      return llvm::ArrayRef<clang::DynTypedNode>(roots_[root->second].parents);
  }
  // Any node with a place: a statement, a declaration, a type location.
  const clang::SourceManager &sm = ast_.getSourceManager();
  clang::SourceLocation location = sm.getExpansionLoc(node.getSourceRange().getBegin());
  if (location.isInvalid())
    return wholeTranslationUnit(node);
  auto [file, offset] = sm.getDecomposedLoc(location);
  // Declarations first; a class's or function template's own map (its
  // members included) only for what none of them holds (template
  // arguments, bases); a class template's (its instantiations included)
  // last (its template parameters).
  llvm::SmallVector<clang::DynTypedNodeList, 2> found;
  llvm::SmallVector<unsigned, 4> candidates;
  for (const SpanIndex *index : {&leaves_, &containers_, &classTemplates_}) {
    candidates.clear();
    index->holding(file, offset, candidates);
    for (unsigned candidate : candidates) {
      clang::DynTypedNodeList parents = mapOf(candidate).getParents(node);
      if (!parents.empty())
        found.push_back(parents);
    }
    if (!found.empty())
      break;
  }
  if (found.empty() && std::getenv("STREAMLINT_DEBUG_PARENTS") && fallbacks_ < 5) {
    llvm::errs() << "candidates " << candidates.size() << "\n";
    for (unsigned c : candidates) {
      llvm::errs() << "  " << roots_[c].decl->getDeclKindName() << " ";
      if (auto *nd = llvm::dyn_cast<clang::NamedDecl>(roots_[c].decl)) llvm::errs() << nd->getQualifiedNameAsString();
      llvm::errs() << "\n";
    }
  }
  if (found.empty())
    return wholeTranslationUnit(node);
  if (found.size() == 1)
    return found.front();
  // In several declarations' maps (a node an instantiation shares with its
  // pattern): their parents in the whole-TU walk's order, as its map holds.
  const void *key = node.getMemoizationData(); // null for a type location
  auto known = key ? mergedIndex_.find(key) : mergedIndex_.end();
  if (known != mergedIndex_.end())
    return llvm::ArrayRef<clang::DynTypedNode>(merged_[known->second]);
  std::vector<clang::DynTypedNode> all;
  for (const clang::DynTypedNodeList &parents : found)
    for (const clang::DynTypedNode &parent : parents)
      if (std::find(all.begin(), all.end(), parent) == all.end())
        all.push_back(parent);
  if (key)
    mergedIndex_[key] = static_cast<unsigned>(merged_.size());
  merged_.push_back(std::move(all));
  return llvm::ArrayRef<clang::DynTypedNode>(merged_.back());
}

clang::DynTypedNodeList parentsOf(clang::ASTContext &ast, const clang::DynTypedNode &node) {
  if (current && currentAst == &ast)
    return current->parents(node);
  return ast.getParents(node);
}

} // namespace streamlint
