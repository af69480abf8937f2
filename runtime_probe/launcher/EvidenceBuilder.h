#pragma once
// From per-site counters to per-check observations: decides, for each check
// that applies to the API a site called, how many calls there were and how
// many of them were the misuse. Aggregates sites that resolve to one line.

#include "RawTrace.h"
#include "SiteResolver.h"
#include "analyzer/trace/TraceFormat.h"

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace streamlint::probe {

/// The observations one raw site contributes (one per applicable check).
std::vector<TraceObservation> observationsFor(const RawSite &site,
                                              const SourceSite &where);

/// Collects observations and sums those of the same check, file and line.
class EvidenceBuilder {
public:
  void add(const RawSite &site, const SourceSite &where);
  /// Sites whose call site could not be resolved (no debug info).
  void addUnresolved(const RawSite &site) { unresolvedCalls_ += site[Counter::Calls]; }
  /// Sites made inside prebuilt libraries with no program frame.
  void addLibraryOnly(const RawSite &site) { libraryOnlyCalls_ += site[Counter::Calls]; }
  std::uint64_t libraryOnlyCalls() const { return libraryOnlyCalls_; }
  std::uint64_t unresolvedCalls() const { return unresolvedCalls_; }
  /// Sorted by check, file, line.
  std::vector<TraceObservation> observations() const;

private:
  std::map<std::tuple<std::string, std::string, unsigned, std::string>,
           TraceObservation>
      merged_;
  std::uint64_t unresolvedCalls_ = 0;
  std::uint64_t libraryOnlyCalls_ = 0;
};

} // namespace streamlint::probe
