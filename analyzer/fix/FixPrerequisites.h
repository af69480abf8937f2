#pragma once
// Fixes that rely on another check's fix (FixIt::prerequisites): device-sync
// narrows cudaDeviceSynchronize() to cudaStreamPerThread only together with
// default-stream's moves of the work it waits for to that stream. Such a fix
// carries the other fixes' edits itself (so --fix applies all or none of
// them, whatever it skips as overlapping), and is applicable only when those
// fixes are applicable and reported in the same run: the check enabled, the
// finding not suppressed by NOLINT, a baseline or the report's filters.

#include "analyzer/Finding.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <string>
#include <vector>

namespace streamlint {

/// Makes a suggestion of every applicable fix of `findings` whose
/// prerequisites are not met by `findings` themselves (repeated until
/// nothing changes: a refused fix may be another's prerequisite). Its
/// description says which fix it relies on and why that one is not applied;
/// `whyAbsent` words a prerequisite whose finding is not among `findings`
/// ("its finding is suppressed by NOLINT"). Run once after the analysis and
/// again after each step that removes findings, so the first step that
/// removes one names it.
void settleFixPrerequisites(std::vector<Finding> &findings,
                            llvm::function_ref<std::string(const FixPrerequisite &)> whyAbsent);

} // namespace streamlint
