#pragma once
// Parents of AST nodes without clang's whole-TU parent map.
//
// ASTContext::getParents builds, on its first call, a map of every node of
// the traversal scope: on a PyTorch extension TU 0.55 s and 114 MiB, for
// the parents of a few hundred nodes in a handful of functions. BodyParents
// answers the same question from a map per top-level declaration (a
// function with its body, a variable with its initializer, a field, ...),
// built by clang's own ParentMapContext over that declaration alone, the
// first time a node inside it is asked about. The declaration holding a
// node is found by source location: every declaration whose (expanded)
// source range holds the node's is a candidate (a template's pattern and
// its instantiations share one range), and the node's parents are those
// the candidates' maps give, merged in the order the whole-TU walk visits
// them, so the answer is the whole-TU map's. A node no candidate holds
// (one outside every declaration's range, a type location) is answered by
// clang's whole-TU map after all, built then, as before; phase times
// (STREAMLINT_PHASE_TIMES) count such fallbacks.
//
// Known difference: an expression of a default argument or default member
// initializer is reached by the whole-TU walk from every call (through
// CXXDefaultArgExpr) as well as from its declaration; here it has the
// declaration's parent only.

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/ParentMapContext.h"

#include "llvm/ADT/DenseMap.h"

#include <deque>
#include <memory>
#include <vector>

namespace streamlint {

/// The parents of nodes of one TU, one declaration's map at a time. Lives
/// on the thread analyzing the TU (one at a time per thread), created after
/// the traversal scope is set; parentsOf() consults it while it lives.
class BodyParents {
public:
  explicit BodyParents(clang::ASTContext &ast);
  ~BodyParents();
  BodyParents(const BodyParents &) = delete;
  BodyParents &operator=(const BodyParents &) = delete;

  /// What ast.getParents(node) answers.
  clang::DynTypedNodeList parents(const clang::DynTypedNode &node);

  /// For phase times: declarations whose map was built, of how many, and
  /// the queries answered by clang's whole-TU map.
  unsigned mapsBuilt() const { return static_cast<unsigned>(maps_.size()); }
  unsigned declarations() const { return static_cast<unsigned>(roots_.size()); }
  unsigned fallbacks() const { return fallbacks_; }

private:
  struct Root {
    clang::Decl *decl;
    /// The whole-TU walk's parents of `decl` (the context it was met in).
    std::vector<clang::DynTypedNode> parents;
    /// A namespace, class or template: its members (instantiations) are
    /// roots too; its own map is looked in only for what none holds.
    bool container;
  };
  struct Span {
    unsigned begin, end; // file offsets of the expanded range
    unsigned root;       // index into roots_, the whole-TU walk's order
  };
  /// Per file, the spans sorted by begin, with the largest end so far: a
  /// lookup scans back from the offset while that reaches it (few steps
  /// where spans do not nest, as the leaf declarations' do not).
  struct SpanIndex {
    llvm::DenseMap<clang::FileID, std::vector<Span>> spans;
    llvm::DenseMap<clang::FileID, std::vector<unsigned>> maxEnd;
    void finish();
    void holding(clang::FileID file, unsigned offset,
                 llvm::SmallVectorImpl<unsigned> &roots) const;
  };
  void collect(clang::Decl *decl, const clang::DynTypedNode &parent);
  void collectInstantiations(clang::NamedDecl *templated, const clang::DynTypedNode &self);
  void addRoot(clang::Decl *decl, const clang::DynTypedNode &parent, bool container);
  void indexSpans();
  clang::ParentMapContext &mapOf(unsigned root);
  clang::DynTypedNodeList wholeTranslationUnit(const clang::DynTypedNode &node);

  clang::ASTContext &ast_;
  BodyParents *previous_;
  clang::ASTContext *previousAst_ = nullptr;
  std::vector<Root> roots_;
  llvm::DenseMap<const clang::Decl *, unsigned> rootIndex_;
  SpanIndex leaves_;     // declarations that are not containers
  SpanIndex containers_; // classes and function templates
  SpanIndex classTemplates_;
  llvm::DenseMap<unsigned, std::unique_ptr<clang::ParentMapContext>> maps_;
  /// Parents merged from several declarations' maps, kept for the lists
  /// handed out.
  std::deque<std::vector<clang::DynTypedNode>> merged_;
  llvm::DenseMap<const void *, unsigned> mergedIndex_;
  bool whole_ = false; // clang's whole-TU map was built: answer from it
  unsigned fallbacks_ = 0;
};

/// ast.getParents(node), answered by this thread's BodyParents when one
/// lives for `ast`.
clang::DynTypedNodeList parentsOf(clang::ASTContext &ast, const clang::DynTypedNode &node);

template <typename NodeT>
clang::DynTypedNodeList parentsOf(clang::ASTContext &ast, const NodeT &node) {
  return parentsOf(ast, clang::DynTypedNode::create(node));
}

} // namespace streamlint
