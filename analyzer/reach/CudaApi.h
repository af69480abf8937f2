#pragma once
// Which calls are CUDA API calls, what they do (allocate, free, synchronize
// the device), and which stream they use. Shared by the reach analysis and
// the checks built on it.
// Which stream a call uses is analyzer/analysis/StreamResolution's job.

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

namespace streamlint::reach {

/// `cudaMemcpy_ptds` -> `cudaMemcpy`, `cuMemAlloc_v2` -> `cuMemAlloc`.
llvm::StringRef baseApiName(llvm::StringRef name);
/// The name carries a per-thread-default-stream suffix (_ptsz / _ptds).
bool hasPerThreadSuffix(llvm::StringRef name);

/// A runtime/driver/library name prefix (cuda*, cu[A-Z]*, cublas*, ...), minus
/// cuComplex.h arithmetic (cuCaddf, cuCabs, ...), which is plain host math.
bool hasCudaApiName(llvm::StringRef name);

/// A CUDA API function: a CUDA name declared in a system header or in one of
/// the toolkit's (or the test stub's) header names. A user function merely
/// named cuFoo is not one.
bool isCudaApiFunction(const clang::FunctionDecl &function,
                       const clang::SourceManager &sources);

/// Names of APIs CUDA 13 removed; in a call they are only a RecoveryExpr.
bool isRemovedCudaApi(llvm::StringRef name);

/// Functions that take a host callback, and the index of that argument.
int hostCallbackArgument(llvm::StringRef baseName);

/// Extra names from check options ("a;b;c").
llvm::StringSet<> parseNameList(llvm::StringRef list);

/// Allocates / Frees bits (ApiKind) for a base API name.
unsigned allocationKinds(llvm::StringRef baseName,
                         const llvm::StringSet<> &extraAlloc);

/// The synchronous memcpy/memset family that runs on the default stream.
bool isSynchronousCopy(llvm::StringRef baseName);

/// Whether the call waits for all work on the device (or the legacy stream):
/// cudaDeviceSynchronize, cudaStreamSynchronize(0/legacy), synchronous
/// cudaMemcpy/cudaMemset. `perThreadDefault`: the TU is built with PTDS.
bool isDeviceWideSync(llvm::StringRef spelledName, const clang::CallExpr *call,
                      bool perThreadDefault, clang::ASTContext &ast,
                      const llvm::StringSet<> &extraSync);

} // namespace streamlint::reach
