#pragma once
// Where the memory behind a host pointer comes from: pageable (malloc, new,
// std::vector, stack, globals), pinned (cudaMallocHost, cudaHostAlloc,
// managed, cudaHostRegister), device, or unknown. Shared by every check that
// cares whether a copy can overlap (pageable-memcpy-async, the probe merge).

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <memory>
#include <string>
#include <vector>

namespace streamlint {

/// What kind of memory a pointer refers to, as far as the TU shows.
enum class MemoryKind {
  Null,     // a null pointer constant: contributes nothing when merging
  Pageable, // ordinary host memory: the runtime stages async copies
  Pinned,   // page-locked or managed: async copies overlap
  Device,   // device memory or a __device__/__constant__ symbol
  Unknown,  // several sources disagree, or the source is not visible
};

/// The answer for one pointer: its kind and the allocation or declaration
/// that decides it.
struct Provenance {
  MemoryKind kind = MemoryKind::Unknown;
  /// How the user would name the source: "malloc", "a stack array 'buf'",
  /// "std::vector 'v' storage", "cudaMallocHost". Empty when unknown.
  std::string origin;
  /// The allocation call, new-expression or declaration behind the memory.
  clang::SourceLocation location;
  /// Identity of the memory (an allocation Expr or a VarDecl/FieldDecl):
  /// two pointers with the same site point into the same buffer.
  const void *site = nullptr;
  /// The pointer variable (local, or a global only this TU assigns) the
  /// allocation was stored in, when it is read from one (fix-its rewrite it).
  const clang::VarDecl *holder = nullptr;
  /// The allocation expression (malloc call or new[]), when there is one.
  const clang::Expr *allocation = nullptr;
  /// Unknown here, but decided by what this function returns: it is a user
  /// function defined in another TU (the whole-program pass resolves it).
  const clang::FunctionDecl *returnedBy = nullptr;
  /// Unknown here, but decided by what callers pass for this parameter: its
  /// function may be called from other TUs (the whole-program pass resolves
  /// it from every call's argument).
  const clang::ParmVarDecl *parameterOf = nullptr;
};

/// Answers provenance questions about pointers in one TU. Conservative: a
/// variable assigned from sources of different kinds is Unknown; parameters
/// are followed into functions whose every caller is in the TU, and left to
/// the whole-program pass (Provenance::parameterOf) for the others.
class ProvenanceIndex;

class PointerProvenance {
public:
  /// `instantiations`: TranslationUnitInfo::instantiations (null or
  /// nullopt: every library declaration is walked for them);
  /// `preambleNamesProject`: TranslationUnitInfo::preambleInstantiationsNameProject.
  explicit PointerProvenance(
      clang::ASTContext &ast,
      const std::optional<std::vector<const clang::FunctionDecl *>> *instantiations = nullptr,
      bool preambleNamesProject = true);
  ~PointerProvenance();

  /// The memory `pointer` refers to when evaluated at `use` (the statement
  /// that reads it: orders assignments and cudaHostRegister calls).
  Provenance of(const clang::Expr *pointer, const clang::Stmt *use,
                const clang::FunctionDecl *function);
  /// The memory an lvalue (an argument bound to a reference parameter)
  /// lives in: `of(&lvalue)`.
  Provenance storage(const clang::Expr *lvalue, const clang::Stmt *use,
                     const clang::FunctionDecl *function);

  /// What `function` (defined in this TU) returns: the merge of its return
  /// statements, so malloc/new/cudaMallocHost wrappers are seen through.
  Provenance returnedFrom(const clang::FunctionDecl &function);

  /// The cudaHostRegister calls in the TU.
  const std::vector<const clang::CallExpr *> &registrations();

  /// Direct calls in the TU, by callee (canonical declaration), and whether
  /// a function's address is taken: what callers pass, for the whole program.
  const llvm::DenseMap<const clang::FunctionDecl *, std::vector<const clang::CallExpr *>> &
  callsByCallee();
  const llvm::SmallPtrSet<const clang::FunctionDecl *, 16> &addressTaken();

private:
  struct Walk; // one query: the copy, the recursion guard and depth
  Provenance evaluate(const clang::Expr *e, const clang::Stmt *use, Walk &walk);
  Provenance storageOf(const clang::Expr *lvalue, const clang::Stmt *use, Walk &walk);
  Provenance containerStorage(const clang::Expr *object, const clang::Stmt *use,
                              Walk &walk);
  Provenance call(const clang::CallExpr *call, const clang::Stmt *use, Walk &walk);
  /// One recorded definition (ProvenanceIndex::Definition; defined in the .cpp).
  template <typename Definition> Provenance definition(const Definition &def, Walk &walk);
  Provenance variable(const clang::VarDecl *var, const clang::Stmt *use, Walk &walk);
  Provenance declaration(const clang::ValueDecl *decl, const clang::Stmt *use,
                         Walk &walk);
  Provenance parameter(const clang::ParmVarDecl *parm, Walk &walk);
  /// The object a reference parameter or local reference is bound to.
  Provenance referent(const clang::VarDecl *reference, const clang::Stmt *use, Walk &walk);
  /// The container an iterator expression points into (`v.begin() + i`).
  Provenance iteratorStorage(const clang::Expr *iterator, const clang::Stmt *use,
                             Walk &walk);
  Provenance userFunction(const clang::CallExpr *callExpr,
                          const clang::FunctionDecl *callee, Walk &walk);
  Provenance elements(const clang::VarDecl *array, Walk &walk);
  Provenance returnedMemory(const clang::FunctionDecl &function, Walk &walk);
  Provenance applyRegistration(Provenance result, Walk &walk);

  clang::ASTContext &ast_;
  std::unique_ptr<ProvenanceIndex> index_;
};

/// Combines two answers for the same pointer on different paths.
Provenance mergeProvenance(const Provenance &a, const Provenance &b);

} // namespace streamlint
