#pragma once
// Whether a translation unit uses CUDA at all, decided by preprocessing it
// (no parse): most C/C++ TUs of a mixed project never include a CUDA header,
// and analyzing them only costs time.

#include "analyzer/compiledb/CompileDatabase.h"

namespace streamlint {

/// True for CUDA-language TUs (.cu, -x cuda) without looking further; for
/// others, true if preprocessing includes a header of the toolkit (or any
/// cuda.h / cuda_runtime.h / cuda_runtime_api.h) or the main file or its
/// project headers call a `cuda*`/`cu*` API function. Also true whenever the
/// preprocessor cannot finish (a missing header): never skip what we cannot
/// see.
bool translationUnitUsesCuda(const ClangInvocation &invocation,
                             const Toolchain &toolchain);

} // namespace streamlint
