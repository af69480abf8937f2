#pragma once
// Library handles (cuBLAS, cuSPARSE, cuSOLVER, cuDNN handles, cuFFT plans,
// cuRAND generators) in one translation unit: where each is created, bound to
// a stream, used for work or passed to a function, keyed by where it is
// stored (a variable, a parameter, a member). The TU's side of
// LibraryDefaultStreamPart.h: the verdict is the whole program's, since handles are
// usually created in one function or file and used in others. A handle whose
// value is copied, returned or stored anywhere else escapes: precision over
// recall.

#include "checks/LibraryDefaultStreamPart.h"
#include "api/LibraryApiTable.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

namespace streamlint {

class TranslationUnitContext;

/// Whether `type` is spelled as one of the library handle typedefs.
const api::LibraryHandleInfo *libraryHandleOfType(clang::QualType type);

/// A handle's creation, for the finding prepared in the TU.
struct HandleCreation {
  const api::LibraryHandleInfo *library = nullptr;
  const clang::ValueDecl *storage = nullptr;  ///< variable or member
  const clang::CallExpr *creation = nullptr;  ///< cublasCreate(&h)
  const clang::FunctionDecl *creatingFunction = nullptr;
};

/// Collects handle events from every call and reference in a TU and turns
/// them into the TU's HandleFacts.
class LibraryHandleTracker {
public:
  /// A call in host code, with the function it appears in.
  void addCall(const clang::CallExpr &call, const clang::FunctionDecl *function);
  /// A reference to a handle-typed variable, parameter or member.
  void addReference(const clang::Expr &reference);
  /// A handle-typed parameter of a function defined in this TU: summarized
  /// even when the function does nothing with it.
  void addParameter(const clang::ParmVarDecl &parameter);

  /// The finding a creation gets if it turns out to do work unbound
  /// (nullopt: never reported, e.g. in a system header).
  using FindingFor = std::function<std::optional<Finding>(const HandleCreation &)>;
  /// After every call, reference and parameter was added.
  std::vector<HandleFacts> facts(const TranslationUnitContext &context,
                                        const FindingFor &findingFor) const;

private:
  struct Event {
    HandleEventKind kind;
    const clang::CallExpr *call;
    const clang::FunctionDecl *function;
    const api::LibraryHandleInfo *library;
    const clang::FunctionDecl *callee = nullptr; ///< Pass: the callee
    unsigned parameter = 0;                      ///< Pass: the parameter
  };

  void addEvent(const clang::Expr *handle, std::optional<Event> event);
  bool escaped(const clang::ValueDecl *storage) const;
  std::optional<HandleFacts> factsOf(const clang::ValueDecl *storage,
                                            const std::vector<Event> &events,
                                            const TranslationUnitContext &context,
                                            const FindingFor &findingFor) const;

  std::map<const clang::ValueDecl *, std::vector<Event>> events_;
  /// Every reference seen, and those a known event consumed.
  std::map<const clang::ValueDecl *, std::set<const clang::Expr *>> references_;
  std::set<const clang::Expr *> consumed_;
};

} // namespace streamlint
