#pragma once
// The walks behind OrderingSafety.h (OrderingWalk.cpp): from the work being
// moved (or the wait being narrowed), back over what was issued before it
// and forward over what is issued after it. Internal to analyzer/analysis.

#include "analyzer/analysis/OrderingSafety.h"
#include "analyzer/analysis/StreamOperations.h"

namespace streamlint {

enum class OrderingMode { Move, Narrow };

/// The verdict for the operation `at` of `ops` moved to (Move) or waited for
/// on (Narrow) `target` (null: the per-thread default stream).
/// `workOnTarget`: a narrowed wait that first issues the work itself on the
/// target (rule 9's Async copy).
OrderingVerdict walkOrdering(const FunctionOperations &ops, size_t at,
                             const clang::ValueDecl *target, OrderingMode mode,
                             TranslationUnitContext &context, const OrderingAssumption &assume,
                             bool workOnTarget = false);

} // namespace streamlint
