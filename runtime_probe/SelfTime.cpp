#include "SelfTime.h"

#include "ApiCatalog.h"

namespace streamlint::probe {

SelfTimeKind selfTimeKindOf(std::uint16_t traits) {
  if (traits & TraitLaunch)
    return SelfTimeKind::Launch;
  if (traits & TraitMemcpyAsync)
    return SelfTimeKind::AsyncCopy;
  if (traits & TraitSynchronization)
    return SelfTimeKind::Synchronization;
  if (traits & TraitAllocation)
    return SelfTimeKind::Allocation;
  if (traits & TraitStreamOrdered)
    return SelfTimeKind::StreamOrdered;
  return SelfTimeKind::Other;
}

const char *selfTimeKindName(SelfTimeKind kind) {
  switch (kind) {
  case SelfTimeKind::Launch: return "launch";
  case SelfTimeKind::AsyncCopy: return "async copy";
  case SelfTimeKind::Synchronization: return "synchronization";
  case SelfTimeKind::Allocation: return "allocation/free";
  case SelfTimeKind::StreamOrdered: return "other stream-ordered";
  case SelfTimeKind::Other: return "other";
  case SelfTimeKind::kCount: break;
  }
  return "?";
}

void SelfTime::report(std::FILE *out, double nsPerTick, double readCostNs) const {
  std::fprintf(out,
               "streamlint-probe: own time per callback (enter or exit; includes one "
               "clock-read pair, %.0f ns):\n",
               readCostNs);
  for (unsigned k = 0; k < static_cast<unsigned>(SelfTimeKind::kCount); ++k) {
    auto kind = static_cast<SelfTimeKind>(k);
    std::uint64_t n = callbacks(kind);
    if (n == 0)
      continue;
    std::fprintf(out, "streamlint-probe:   %-20s %12llu callbacks %8.1f ns\n",
                 selfTimeKindName(kind), static_cast<unsigned long long>(n),
                 double(ticks(kind)) * nsPerTick / double(n));
  }
}

} // namespace streamlint::probe
