#include "EvidenceBuilder.h"

#include "analyzer/trace/Evidence.h"

namespace streamlint::probe {
namespace {

SiteCounts countsOf(const RawSite &site) {
  SiteCounts counts;
  counts.api = site.api;
  counts.calls = site.calls;
  counts.hostNs = site.hostNs;
  counts.bytes = site.bytes;
  counts.streamCalls = site.streamCalls;
  counts.legacyStream = site.legacyStream;
  counts.pageable = site.pageable;
  counts.pinned = site.pinned;
  counts.churn = site.churn;
  counts.callbackThreadCalls = site.callbackThreadCalls;
  counts.callbackThreadErrors = site.callbackThreadErrors;
  counts.lastCallbackThreadError = site.lastCallbackThreadError;
  return counts;
}

} // namespace

// What each check makes of a site is its evidence declaration
// (analyzer/trace/Evidence.cpp); nothing here is specific to one check.
std::vector<TraceObservation> observationsFor(const RawSite &site,
                                              const SourceSite &where) {
  std::vector<TraceObservation> out;
  SiteCounts counts = countsOf(site);
  for (const EvidenceDeclaration &declaration : evidenceDeclarations()) {
    if (declaration.observedAs)
      continue; // judged by another check's observations of the same sites
    TraceObservation o;
    if (!observe(declaration, counts, o))
      continue;
    o.file = where.file;
    o.line = where.line;
    o.fileGuessed = where.fileGuessed;
    o.function = where.function;
    out.push_back(std::move(o));
  }
  return out;
}

void EvidenceBuilder::add(const RawSite &site, const SourceSite &where) {
  for (TraceObservation &o : observationsFor(site, where)) {
    auto key = std::make_tuple(o.check, o.file, o.line);
    auto it = merged_.find(key);
    if (it == merged_.end()) {
      merged_.emplace(key, std::move(o));
      continue;
    }
    TraceObservation &m = it->second;
    // Different call paths to one line: sum.
    m.calls += o.calls;
    m.hostTimeUs += o.hostTimeUs;
    m.bytes += o.bytes;
    m.misuses += o.misuses;
    if (m.api != o.api && m.api.find(o.api) == std::string::npos)
      m.api += "," + o.api;
    const EvidenceDeclaration *declaration = evidenceFor(m.check);
    if (declaration && declaration->detailOfTotals)
      m.detail = declaration->detailOfTotals(m.misuses, m.calls);
    else if (!o.detail.empty())
      m.detail = m.detail.empty() ? o.detail : m.detail + "; " + o.detail;
  }
}

std::vector<TraceObservation> EvidenceBuilder::observations() const {
  std::vector<TraceObservation> out;
  for (const auto &entry : merged_)
    out.push_back(entry.second);
  return out;
}

} // namespace streamlint::probe
