#pragma once
// Which CUDA stream a kernel launch or runtime call uses, and which stream
// the surrounding code already uses. Shared by default-stream and by the
// fix-its of other checks (device-sync, alloc-in-loop) that need a stream to
// pass instead of synchronizing or allocating on the device.
//
// Everything here is syntactic and local to one function: precision over
// recall. A stream we cannot prove is anything is `Unknown`, and no caller
// should report or rewrite on `Unknown`.

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

#include <optional>
#include <string>

namespace streamlint {

/// What a stream argument provably is.
enum class StreamKind {
  Omitted,   ///< left out; the parameter's default (0) applies
  Null,      ///< 0, NULL, nullptr, or a local stream variable only ever null
  Legacy,    ///< cudaStreamLegacy: the legacy stream in every build mode
  PerThread, ///< cudaStreamPerThread
  Named,     ///< a stream object: variable, parameter, member, call result
  Unknown,   ///< anything else (dependent, computed, invalid)
};
const char *streamKindName(StreamKind kind); // "omitted", "null", ...

/// True when `kind` means the legacy (NULL) stream in a TU built with
/// (`perThreadDefaultStream`) or without per-thread default stream.
bool isLegacyStream(StreamKind kind, bool perThreadDefaultStream);

/// The classification of one stream argument.
struct StreamClassification {
  StreamKind kind = StreamKind::Unknown;
  /// For Null through a variable (`cudaStream_t s = 0; k<<<1,1,0,s>>>()`) or
  /// Named: the variable or parameter referred to; else null.
  const clang::VarDecl *variable = nullptr;
};

/// Classifies a stream argument as written (a CXXDefaultArgExpr is Omitted
/// when its default is null). With `function` (where the argument appears),
/// a local variable proven to hold only one stream constant is classified as
/// that constant; without it, local variables are Named.
StreamClassification classifyStreamArgument(const clang::Expr *argument,
                                            const clang::ASTContext &ast,
                                            const clang::FunctionDecl *function = nullptr);

/// Whether `type` is cudaStream_t / CUstream (a pointer to CUstream_st).
bool isStreamType(clang::QualType type);

/// Where a call passes its stream.
struct StreamArgumentSite {
  const clang::Expr *argument = nullptr; ///< as in the AST (maybe default)
  unsigned index = 0;                    ///< argument index in the call
  bool isKernelLaunch = false;           ///< index is into the <<<>>> config
};

/// The stream argument of a `<<<...>>>` launch (config argument 3) or of a
/// call whose callee has exactly one cudaStream_t parameter. Nullopt for
/// anything else (no stream parameter, or several).
std::optional<StreamArgumentSite> streamArgumentOf(const clang::CallExpr &call);

/// The callee's name as the user wrote it: without the `_ptsz`/`_ptds`
/// suffix per-thread default-stream builds add (`cudaMemcpyAsync_ptsz` ->
/// `cudaMemcpyAsync`); see api::parseApiName.
std::string apiNameAsWritten(const clang::FunctionDecl &callee);

/// The stream a fix can pass at `site`: a cudaStream_t variable or parameter
/// of `function` that is visible and ready at `site` and is the only stream
/// variable the function passes to launches or stream-taking calls.
struct StreamInScope {
  const clang::VarDecl *variable = nullptr;
  std::string spelling; ///< what to write: the variable's name
  unsigned uses = 0;    ///< launches and calls in `function` that pass it
};

/// Nullopt when no stream, or more than one, is in use (say so instead of
/// guessing). Variables captured by lambdas and arrays of streams are not
/// considered. `site` must be inside `function`'s body.
std::optional<StreamInScope> uniqueStreamInScope(const clang::FunctionDecl &function,
                                                 const clang::Stmt &site,
                                                 clang::ASTContext &ast);

/// The first call in the definition of `function` that passes its parameter
/// `parameterIndex` as the stream of a launch or CUDA API call, directly or
/// through functions defined in this TU (a few levels deep); null if none is
/// visible (no definition, or the parameter is not used as a stream).
const clang::CallExpr *streamUseOfParameter(const clang::FunctionDecl &function,
                                            unsigned parameterIndex);

/// Classifies the `stream` field of a cudaLaunchConfig_t passed as `&config`
/// to cudaLaunchKernelEx/ExC: from its initializer and the assignments to
/// `config.stream` in `function`. Unknown when the config escapes elsewhere.
StreamClassification classifyLaunchConfigStream(const clang::Expr *configArgument,
                                                const clang::FunctionDecl &function);

} // namespace streamlint
