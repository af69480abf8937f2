#pragma once
// Where host code starts threads that may issue CUDA work: each such
// thread has its own per-thread default stream, so a program that starts
// them cannot have its legacy-stream work moved to cudaStreamPerThread
// (docs/fixes.md). CallerOrdering records each start for the
// whole-program pass (OrderingFacts::hostThreads, threadStarters).

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/SourceManager.h"

#include <string>

namespace streamlint {

/// pthread_create, thrd_create, _beginthreadex, CreateThread, std::async,
/// OpenMP's runtime (omp_*: the program runs parallel regions, whether or
/// not this command parses their directives).
bool startsHostThread(const clang::FunctionDecl &callee);

/// The thread class `construct` starts a thread of (std::thread,
/// std::jthread, boost::thread, given a function); "" when it starts none.
std::string threadConstructed(const clang::CXXConstructExpr &construct);

/// Whether an OpenMP directive's threads may issue CUDA work: offloading,
/// or a body that calls CUDA, the program's own code or through a pointer.
/// Host arithmetic under `parallel for` runs none.
bool openMpMayRunCuda(const clang::OMPExecutableDirective &directive,
                      const clang::SourceManager &sm);

} // namespace streamlint
