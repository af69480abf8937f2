#pragma once
// Run-time evidence, declared once per check (checks/CheckEvidence.cpp):
// which call sites the probe's counts apply to, which count says the site
// was reached and which says the misuse happened (how `streamlint --trace` judges a finding confirmed,
// refuted or not reached), and how the evidence reads in messages. The
// launcher turns raw sites into observations with these declarations and the
// merge describes them with the same ones. No LLVM: the launcher shares it.

#include "analyzer/trace/TraceFormat.h"
#include "api/CudaApiTable.h"
#include "runtime_probe/SiteCounters.h"

#include <cstdint>
#include <string>
#include <vector>

namespace streamlint {

/// One check's run-time evidence. `api` is the table's row for the site's
/// API (null when the table does not list it).
struct EvidenceDeclaration {
  std::string checkId;
  /// Which sites give evidence for the check.
  bool (*appliesTo)(const api::ApiInfo *api) = nullptr;
  /// Calls that count as reaching the site (> 0: reached).
  std::uint64_t (*reached)(const SiteCounts &counts, const api::ApiInfo *api) = nullptr;
  /// Of those, the misuses (> 0: confirmed; 0 on a reached site: refuted).
  std::uint64_t (*misused)(const SiteCounts &counts, const api::ApiInfo *api) = nullptr;
  /// Extra words for the message ("3 pinned"); may be null.
  std::string (*detail)(const SiteCounts &counts, const api::ApiInfo *api) = nullptr;
  /// When set, the detail of several sites merged onto one line is made
  /// again from the summed misuses and calls (instead of joining details).
  std::string (*detailOfTotals)(std::uint64_t misuses, std::uint64_t calls) = nullptr;
  /// No observation for a site that was not reached.
  bool skipUnreached = false;
  /// The check's findings also collect evidence at their related locations
  /// (library-default-stream: a handle's finding is at its creation, the
  /// work it does is at the related uses).
  bool matchRelatedLocations = false;
  /// An observation no finding of this check claims becomes a "found at run
  /// time" finding. Off for a check whose sites are another check's too.
  bool reportUnmatched = true;
  /// When set, the check is judged by that check's observations (the same
  /// counts at the same sites) and the probe writes none of its own.
  const char *observedAs = nullptr;
  /// The message: {misuses} {calls} {bytes} {hostUs} {ran} are replaced.
  const char *summary = "{misuses} of {calls} calls misused";
};

/// The observation `declaration` makes of one site; false when none.
bool observe(const EvidenceDeclaration &declaration, const SiteCounts &counts,
             TraceObservation &observation);

/// The summary with its placeholders filled in.
std::string evidenceSummary(const EvidenceDeclaration *declaration, std::uint64_t misuses,
                            std::uint64_t calls, std::uint64_t bytes, double hostTimeUs);

} // namespace streamlint
