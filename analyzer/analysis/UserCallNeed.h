#pragma once
// A call of a user function that an ordering walk (OrderingWalk.cpp) goes
// over, judged by its callee's whole-program summary instead of as "may do
// anything": the clang side of ordering::CalleeNeed. Internal to
// analyzer/analysis.

#include "analyzer/analysis/OrderingSummary.h"
#include "analyzer/analysis/StreamOperations.h"
#include "analyzer/analysis/TranslationUnitContext.h"

#include <optional>

namespace streamlint {

/// The need of `op` in `function` with its callee, call site and the stream
/// parameter the call leaves to the legacy stream filled in; nullopt unless
/// `op` is a direct call of a user function that is not virtual, not an
/// operator and not in a system header (and `function` selects no device:
/// the legacy stream would then be another device's). The caller sets what
/// the walk allows.
std::optional<ordering::CalleeNeed> userCallNeed(const StreamOperation &op,
                                                 const clang::FunctionDecl &function,
                                                 TranslationUnitContext &context);

} // namespace streamlint
