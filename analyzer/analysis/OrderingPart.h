#pragma once
// Stream ordering's whole-program facts (OrderingSummary.h) as a shared
// whole-program part (analyzer/WholeProgramPart.h). Shared by the checks
// whose fixes move work off the legacy stream or narrow a wait, so the
// driver collects a TU's facts for every TU, whichever checks it runs (a
// call in any TU may decide a fix elsewhere); once every TU was analyzed,
// the part's `amend` decides the conditional fixes of the findings reported
// (resolveConditionalFixes). No clang types.

#include "analyzer/WholeProgramPart.h"
#include "analyzer/analysis/OrderingSummary.h"

namespace streamlint::ordering {

/// The part's id in summaries, the index and shards.
inline constexpr const char *kOrderingPart = "ordering";

/// One TU's ordering facts, as the part carries them.
struct OrderingPartFacts : PartFacts {
  OrderingFacts facts;
  nlohmann::json toJson() const override;
  PartFactsPtr withoutFixes() const override;
};

PartFactsPtr orderingPartFacts(OrderingFacts facts);
WholeProgramPart orderingPart();

} // namespace streamlint::ordering
