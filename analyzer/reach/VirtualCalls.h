#pragma once
// Virtual calls in the whole-program call graph (class hierarchy analysis):
// a call through a base class pointer or reference reaches every overrider
// of the named method defined anywhere in the program, so loops, hot paths
// and host callbacks are followed into them like direct calls.

#include "analyzer/reach/ReachSummary.h"

namespace streamlint::reach {

/// Overriders one virtual call is followed into, nearest first: a large
/// hierarchy adds at most this many edges per call site.
inline constexpr unsigned MaxOverridersPerCall = 32;

/// Adds, for each virtual call edge of `program` (normalized), an edge to
/// each overrider of its callee (transitively, those defined in some TU,
/// at most MaxOverridersPerCall) at the same site and loops, named
/// "Derived::f (virtual call of 'Base::f')". Keeps `program.edges` sorted.
void addOverriderEdges(ProgramSummary &program);

} // namespace streamlint::reach
