#pragma once
// The CUDA work of one function as stream ordering sees it: each operation in
// source order with the stream it is issued to, whether the host waits, and
// the branches and loops around it. The model behind OrderingSafety.h.

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"

#include <string>
#include <vector>

namespace streamlint {

/// The stream an operation is issued to, as far as ordering is concerned.
struct OrderingStream {
  enum Kind { Legacy, PerThread, Variable, Unknown } kind = Unknown;
  const clang::Decl *variable = nullptr; ///< canonical, for Variable
  bool same(const OrderingStream &other) const {
    return kind != Unknown && kind == other.kind && variable == other.variable;
  }
};

/// Whether a stream synchronizes with the legacy default stream.
enum class StreamBlocking { Blocking, NonBlocking, Unknown };

/// What an operation does to ordering.
enum class OperationEffect {
  Neutral,         ///< no device work and no wait (cudaMalloc, printf, ...)
  Enqueue,         ///< work on `stream` (launch, *Async, sync copy, event record)
  HostWaitsAll,    ///< cudaDeviceSynchronize & co.
  HostWaitsStream, ///< cudaStreamSynchronize(stream), cudaEventSynchronize
  Opaque,          ///< may do anything: user code with CUDA work, libraries
  Return,          ///< control goes back to the callers
};

/// One operation of a function.
struct StreamOperation {
  const clang::Stmt *node = nullptr; ///< the call or return statement
  std::string what;                  ///< "cudaMemcpy", "kernel launch", "call of 'f'"
  OperationEffect effect = OperationEffect::Neutral;
  OrderingStream stream;
  StreamBlocking blocking = StreamBlocking::Unknown; ///< of `stream`
  bool hostWaits = false; ///< Enqueue the host waits for (cudaMemcpy to host)
  /// A wait for an event (cudaEventSynchronize): the record it waits for,
  /// whose stream `stream` is; a fix that moves that record moves the wait.
  const clang::Stmt *recordedBy = nullptr;
  /// Enclosing statements that may skip or repeat it (if/switch branches,
  /// loop bodies, ?: arms, && and || right sides), innermost first.
  std::vector<const clang::Stmt *> conditions;
  /// Enclosing loops (not `do ... while (0)`), innermost first.
  std::vector<const clang::Stmt *> loops;
  /// The `if` whose branch holds it and ends the program (its last
  /// statement a noreturn call such as exit(), no jump out of it): nothing
  /// outside that `if` runs after it, so a walk back from there skips it.
  const clang::Stmt *endsProgram = nullptr;
};

/// Whether a walk back from `from` skips `op`: it is in a branch that ends
/// the program, and `from` is not in that `if`.
bool neverBefore(const StreamOperation &op, const StreamOperation &from);

/// The operations of a function's body in source order (lambdas excluded),
/// ending with its implicit return.
struct FunctionOperations {
  const clang::FunctionDecl *function = nullptr;
  std::vector<StreamOperation> operations;
  bool isMain = false; ///< nothing runs before it or after it returns
};

/// `perThreadDefaultStream`: the TU is built with per-thread default stream,
/// so an omitted or 0 stream is the per-thread stream.
FunctionOperations operationsOf(const clang::FunctionDecl &function,
                                clang::ASTContext &ast, bool perThreadDefaultStream);

/// How `stream` was created in `function` (cudaStreamCreate: blocking;
/// cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking): non-blocking);
/// Unknown when it is not created there or is assigned from elsewhere.
StreamBlocking blockingOf(const clang::Decl *stream, const clang::FunctionDecl &function,
                          clang::ASTContext &ast);

/// The stream a call or launch is issued to (`_ptsz` callees and PTDS builds
/// map an omitted or 0 stream to the per-thread stream).
OrderingStream orderingStreamOf(const clang::CallExpr &call, const clang::FunctionDecl &function,
                                clang::ASTContext &ast, bool perThreadDefaultStream);

/// "line 12" for a location in `function`'s file, else "file.cu:12".
std::string describeLine(const clang::Stmt &node, const clang::FunctionDecl &function,
                         const clang::SourceManager &sources);

} // namespace streamlint
