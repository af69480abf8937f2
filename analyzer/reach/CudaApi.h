#pragma once
// Which calls are CUDA API calls and what they do (allocate, free,
// synchronize the device), for the reach analysis and the checks built on
// it. The facts themselves are rows of api/CudaApiTable.h; this file only
// adds what needs clang (declarations, the stream argument of a call).

#include "api/CudaApiTable.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"

namespace streamlint::reach {

/// A runtime/driver/library name prefix (cuda*, cu[A-Z]*, cublas*, ...), minus
/// cuComplex.h arithmetic (cuCaddf, cuCabs, ...), which is plain host math.
bool hasCudaApiName(llvm::StringRef name);

/// A CUDA API function: a CUDA name declared in a system header or in one of
/// the toolkit's (or the test stub's) header names. A user function merely
/// named cuFoo is not one.
bool isCudaApiFunction(const clang::FunctionDecl &function,
                       const clang::SourceManager &sources);

/// Extra names from check options ("a;b;c").
llvm::StringSet<> parseNameList(llvm::StringRef list);

/// Allocates / Frees bits (ApiKind) of a table row (null: none).
unsigned allocationKinds(const api::ApiInfo *api);

/// Whether the call waits for all work on the device (or the legacy stream):
/// cudaDeviceSynchronize, cudaStreamSynchronize(0/legacy), synchronous
/// cudaMemcpy/cudaMemset. `perThreadDefault`: the TU is built with PTDS.
bool isDeviceWideSync(llvm::StringRef spelledName, const clang::CallExpr *call,
                      bool perThreadDefault, clang::ASTContext &ast);

} // namespace streamlint::reach
