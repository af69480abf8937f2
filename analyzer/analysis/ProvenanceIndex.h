#pragma once
// One pass over a TU that PointerProvenance's queries read: every definition
// of each pointer variable and pointer member, every call by callee, and the
// cudaHostRegister calls. Private to PointerProvenance.

#include "analyzer/analysis/PointerProvenance.h"

#include "clang/AST/ASTContext.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <string>
#include <vector>

namespace streamlint {

/// A local array of pointers (`float *slots[2]`), tracked as one variable
/// whose elements' writes are merged.
bool isPointerArrayLocal(const clang::ValueDecl *decl);

/// Definitions, callers and registrations of one TU, built on first use.
/// The statement `stmt` is directly inside (clang's parent map, built on
/// first use), or null.
const clang::Stmt *parentOf(clang::ASTContext &ast, const clang::Stmt *stmt);

class ProvenanceIndex {
public:
  /// One write of a pointer: an assignment (value set) or an allocation
  /// through an out-parameter such as cudaMallocHost(&p, n) (value null).
  struct Definition {
    const clang::Stmt *where = nullptr;
    const clang::Expr *value = nullptr;
    MemoryKind kind = MemoryKind::Unknown;
    std::string origin;
  };
  struct Definitions {
    std::vector<Definition> list;
    /// Written in a way the index cannot follow (a reference bound to it,
    /// &p passed to an unknown function, assigned inside a lambda).
    bool escapes = false;
  };

  /// `instantiations`: the function instantiations the parse made
  /// (TranslationUnitInfo::instantiations), or null to find them by walking
  /// every library declaration.
  /// `preambleNamesProject`: TranslationUnitInfo::preambleInstantiationsNameProject.
  explicit ProvenanceIndex(clang::ASTContext &ast,
                           const std::vector<const clang::FunctionDecl *> *instantiations = nullptr,
                           bool preambleNamesProject = true)
      : ast_(ast), instantiations_(instantiations), preambleNamesProject_(preambleNamesProject) {}

  /// Writes of a variable or member besides its initializer; null if none.
  const Definitions *definitions(const clang::ValueDecl *decl);
  /// Whether every write of `decl` is in this TU: static locals, internal
  /// globals, members of records defined in the main file.
  bool closedInTranslationUnit(const clang::ValueDecl *decl) const;
  /// The definitions of a local that may reach `use`: from the last one that
  /// dominates it on, plus those later in an enclosing loop.
  std::vector<const Definition *> reachingDefinitions(const Definitions *defs,
                                                      const clang::Stmt *use);
  /// All definitions, for variables followed flow-insensitively.
  std::vector<const Definition *> allDefinitions(const Definitions *defs) const;
  /// Whether the initializer (or parameter value) may reach `use`.
  bool initialReaches(const Definitions *defs, const clang::Stmt *use);

  /// The calls of `function` when all are visible in the TU (internal
  /// linkage, never address-taken, not virtual, not a method of a class
  /// whose objects are handed to the library); null otherwise.
  const std::vector<const clang::CallExpr *> *visibleCallers(const clang::FunctionDecl *function);
  /// Every direct call, by callee (canonical declaration).
  const llvm::DenseMap<const clang::FunctionDecl *, std::vector<const clang::CallExpr *>> &
  callsByCallee() {
    build();
    return callers_;
  }
  /// Functions (canonical declarations) used other than by a direct call.
  const llvm::SmallPtrSet<const clang::FunctionDecl *, 16> &addressTaken() {
    build();
    return addressTaken_;
  }
  /// cudaHostRegister / cuMemHostRegister calls.
  const std::vector<const clang::CallExpr *> &registrations();

  const clang::FunctionDecl *functionOf(const clang::Stmt *stmt) const;
  bool sameFunction(const clang::Stmt *a, const clang::Stmt *b) const;
  /// Source order of two statements' starts.
  bool before(const clang::Stmt *a, const clang::Stmt *b) const;

private:
  friend class ProvenanceIndexBuilder;
  void build();
  bool dominates(const clang::Stmt *def, const clang::Stmt *use) const;
  bool insideLoopAround(const clang::Stmt *def, const clang::Stmt *use) const;

  clang::ASTContext &ast_;
  const std::vector<const clang::FunctionDecl *> *instantiations_;
  bool preambleNamesProject_;
  bool built_ = false;
  llvm::DenseMap<const clang::ValueDecl *, Definitions> definitions_;
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<const clang::CallExpr *>> callers_;
  llvm::SmallPtrSet<const clang::FunctionDecl *, 16> addressTaken_;
  /// Classes (canonical) of objects handed to a function declared in a
  /// system header: the library may call any of their methods (a lambda
  /// given to std::for_each), from a body the parse skipped.
  llvm::SmallPtrSet<const clang::CXXRecordDecl *, 8> handedToLibrary_;
  std::vector<const clang::CallExpr *> registrations_;
};

} // namespace streamlint
