#pragma once
// Library handles (cuBLAS, cuSPARSE, cuSOLVER, cuDNN handles, cuFFT plans,
// cuRAND generators) in one translation unit: where each is created, bound to
// a stream and used for work, keyed by where it is stored (a variable, a
// parameter, a member). Calls into functions defined in the TU that take a
// handle are followed a few levels deep. A handle whose value is copied,
// returned or passed anywhere else is not tracked: precision over recall.

#include "api/LibraryApiTable.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <map>
#include <set>
#include <vector>

namespace streamlint {

/// Whether `type` is spelled as one of the library handle typedefs.
const api::LibraryHandleInfo *libraryHandleOfType(clang::QualType type);

/// Work on a handle that runs before any stream is bound to it.
struct UnboundHandleUse {
  const api::LibraryHandleInfo *library = nullptr;
  const clang::ValueDecl *storage = nullptr;   ///< variable or member
  const clang::CallExpr *creation = nullptr;   ///< cublasCreate(&h)
  const clang::FunctionDecl *creatingFunction = nullptr;
  /// Calls that do work on it unbound: library calls, or calls of the TU's
  /// own functions that do (then `through` holds the library call inside).
  struct Use {
    const clang::CallExpr *call = nullptr;
    const clang::CallExpr *through = nullptr;
  };
  std::vector<Use> uses;
};

/// Collects handle events from every call and reference in a TU, then
/// answers which created handles do work unbound.
class LibraryHandleTracker {
public:
  explicit LibraryHandleTracker(const clang::ASTContext &ast) : ast_(ast) {}

  /// A call in host code, with the function it appears in.
  void addCall(const clang::CallExpr &call, const clang::FunctionDecl *function);
  /// A reference to a handle-typed variable, parameter or member.
  void addReference(const clang::Expr &reference);

  /// After every call and reference was added.
  std::vector<UnboundHandleUse> unboundUses() const;

private:
  enum class EventKind { Create, Bind, Work, Through, Setup };
  struct Event {
    EventKind kind;
    const clang::CallExpr *call;
    const clang::FunctionDecl *function;
    const api::LibraryHandleInfo *library;
    const clang::FunctionDecl *callee = nullptr; ///< Through: its definition
    unsigned parameter = 0;                      ///< Through: the parameter
  };
  /// What a function does with its handle parameter.
  struct ParameterEffect {
    bool binds = false;
    bool escapes = false;
    const clang::CallExpr *work = nullptr; ///< first library call doing work
  };

  void addEvent(const clang::Expr *handle, Event event);
  ParameterEffect effectOf(const clang::FunctionDecl &callee, unsigned parameter,
                           unsigned depth) const;
  bool escaped(const clang::ValueDecl *storage) const;
  bool before(const clang::Stmt *a, const clang::Stmt *b) const;

  const clang::ASTContext &ast_;
  std::map<const clang::ValueDecl *, std::vector<Event>> events_;
  /// Every reference seen, and those a known event consumed.
  std::map<const clang::ValueDecl *, std::set<const clang::Expr *>> references_;
  std::set<const clang::Expr *> consumed_;
};

} // namespace streamlint
