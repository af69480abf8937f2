#include "EvidenceBuilder.h"

#include "ApiCatalog.h"

namespace streamlint::probe {
namespace {

TraceObservation base(const RawSite &site, const SourceSite &where,
                      const char *check) {
  TraceObservation o;
  o.check = check;
  o.file = where.file;
  o.line = where.line;
  o.fileGuessed = where.fileGuessed;
  o.function = where.function;
  o.api = std::string(baseApiName(site.api));
  o.calls = site.calls;
  o.hostTimeUs = site.hostNs / 1000.0;
  return o;
}

std::string churnDetail(std::uint64_t churn, std::uint64_t calls) {
  return std::to_string(churn) + " of " + std::to_string(calls) +
         " calls churned: memory allocated again after the site's earlier "
         "memory was freed, or freed after such a reallocation";
}

} // namespace

std::vector<TraceObservation> observationsFor(const RawSite &site,
                                              const SourceSite &where) {
  std::vector<TraceObservation> out;
  if ((site.traits & TraitStreamOrdered) && site.streamCalls > 0) {
    TraceObservation o = base(site, where, "default-stream");
    o.calls = site.streamCalls;
    o.misuses = site.legacyStream;
    out.push_back(o);
  }
  if (site.traits & TraitMemcpyAsync) {
    TraceObservation o = base(site, where, "pageable-memcpy-async");
    o.misuses = site.pageable;
    o.bytes = site.bytes;
    if (site.pinned)
      o.detail = std::to_string(site.pinned) + " pinned";
    out.push_back(o);
  }
  if (site.traits & TraitAllocation) {
    // Churn, not repetition: calls that allocated again after the site's
    // memory was freed, and frees of such memory (AllocationChurn). A
    // set-up loop that allocates N buffers once has none.
    TraceObservation o = base(site, where, "alloc-in-loop");
    o.misuses = site.churn;
    if (site.churn)
      o.detail = churnDetail(site.churn, site.calls);
    out.push_back(o);
  }
  if (site.traits & TraitSynchronization) {
    // cudaDeviceSynchronize always waits for the whole device; a stream's
    // synchronization only when the stream is the legacy default stream
    // (cudaStreamSynchronize(0)); cudaEventSynchronize never.
    TraceObservation o = base(site, where, "device-sync");
    o.misuses = (site.traits & TraitDeviceWide) ? site.calls : site.legacyStream;
    if (!(site.traits & TraitDeviceWide) && site.legacyStream)
      o.detail = "on the legacy default stream";
    out.push_back(o);
  }
  TraceObservation cb = base(site, where, "api-in-host-callback");
  cb.misuses = site.callbackThreadCalls;
  if (site.callbackThreadErrors)
    cb.detail = std::to_string(site.callbackThreadErrors) +
                " returned an error, last error " +
                std::to_string(site.lastCallbackThreadError);
  out.push_back(cb);
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
    if (m.check == "alloc-in-loop")
      m.detail = m.misuses ? churnDetail(m.misuses, m.calls) : "";
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
