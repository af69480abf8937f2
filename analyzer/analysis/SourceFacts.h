#pragma once
// Small facts about source code that several checks ask: whether a function
// runs on the device only, whether the TU is built with the per-thread
// default stream, whether text was written by the user (so an edit is safe),
// and reporting a site once when templates or macros repeat it.

#include "analyzer/analysis/TranslationUnitContext.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"

#include <set>
#include <utility>

namespace streamlint {

/// A __global__ function, or a __device__ one that is not also __host__.
bool isDeviceOnly(const clang::FunctionDecl *function);

/// The TU is compiled with the per-thread default stream (the compile
/// command said so, or a source defines CUDA_API_PER_THREAD_DEFAULT_STREAM).
bool isPerThreadDefaultStreamBuild(TranslationUnitContext &context);

/// Whether `location` is text the user wrote in a file, possibly as a macro
/// argument, and not inside a macro's body (an edit there breaks the macro).
bool writtenInFile(clang::SourceLocation location, const clang::SourceManager &sm);

/// Template instantiations repeat their pattern's locations and a macro that
/// uses its argument twice repeats its spelling: report each site once.
class ReportOnce {
public:
  bool first(const clang::Stmt &site, const clang::SourceManager &sm);

private:
  std::set<std::pair<unsigned, unsigned>> seen_;
};

} // namespace streamlint
