#pragma once
// cudaFree and cudaFreeHost wait for all work on the device before they
// return. A loop that frees every iteration therefore waits every iteration;
// moving the free after the loop removes that wait. This decides whether the
// loop (and, for its first iteration, the code before it) waits for that
// work by itself anyway.

#include "analyzer/analysis/TranslationUnitContext.h"
#include "analyzer/reach/TranslationUnitReach.h"

#include <string>

namespace streamlint {

/// "" when every piece of device work the free waited for is already waited
/// for by an explicit wait of the loop body (cudaDeviceSynchronize,
/// cudaStreamSynchronize of its stream, a synchronous copy to the host for
/// default-stream work) before the free; else names the first work that only
/// the free waited for.
std::string implicitWaitProblem(TranslationUnitContext &context,
                                const reach::TranslationUnitReach &reach,
                                const reach::CallSite &alloc, const reach::CallSite &free);

} // namespace streamlint
