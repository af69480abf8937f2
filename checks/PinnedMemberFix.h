#pragma once
// pageable-memcpy-async's fix for a buffer held in a class member: the one
// malloc/new[] that sets the member (in a constructor or an init function)
// becomes cudaMallocHost, every free/delete[] of it cudaFreeHost. Only when
// the class is defined in the analyzed source file itself (no other file
// can reach the member) and the pointer never leaves the member.

#include "checks/PinnedAllocationFix.h"

namespace streamlint {

/// The fix for the pageable buffer `allocation` (its value stored in a
/// member by `member = allocation;`), or what blocks it.
PinnedFixPlan pinnedMemberFix(TranslationUnitContext &context, PointerProvenance &provenance,
                              const clang::Expr *allocation);

} // namespace streamlint
