// The run-time evidence of each check: one declaration per check, below,
// sorted by id. A check gains dynamic evidence by adding its declaration
// here, reading the probe's counters by name (runtime_probe/SiteCounters.h);
// a new kind of counter is a line there and the probe handler that counts
// it. How a declaration is applied is analyzer/trace/Evidence.cpp's.
#include "checks/CheckEvidence.h"

namespace streamlint {
namespace {

std::uint64_t calls(const SiteCounts &c, const api::ApiInfo *) { return c[Counter::Calls]; }

std::string churnDetail(std::uint64_t churn, std::uint64_t calls) {
  if (!churn)
    return "";
  return std::to_string(churn) + " of " + std::to_string(calls) +
         " calls churned: memory allocated again after the site's earlier "
         "memory was freed, or freed after such a reallocation";
}

const std::vector<EvidenceDeclaration> &declarations() {
  static const std::vector<EvidenceDeclaration> all = [] {
    std::vector<EvidenceDeclaration> list;

    EvidenceDeclaration allocInLoop;
    allocInLoop.checkId = "alloc-in-loop";
    allocInLoop.appliesTo = [](const api::ApiInfo *api) {
      return api && (api::allocatesMemory(*api) || api::freesMemory(*api));
    };
    allocInLoop.reached = calls;
    // Churn, not repetition: calls that allocated again after the site's
    // memory was freed, and frees of such memory (runtime_probe/
    // AllocationChurn). A set-up loop that allocates N buffers once has none.
    allocInLoop.misused = [](const SiteCounts &c, const api::ApiInfo *) { return c[Counter::Churn]; };
    allocInLoop.detail = [](const SiteCounts &c, const api::ApiInfo *) {
      return churnDetail(c[Counter::Churn], c[Counter::Calls]);
    };
    allocInLoop.detailOfTotals = churnDetail;
    allocInLoop.summary = "{ran}, {hostUs} us host time";
    list.push_back(allocInLoop);

    EvidenceDeclaration callback;
    callback.checkId = "api-in-host-callback";
    callback.appliesTo = [](const api::ApiInfo *) { return true; }; // any CUDA call
    callback.reached = calls;
    callback.misused = [](const SiteCounts &c, const api::ApiInfo *) {
      return c[Counter::CallbackThreadCalls];
    };
    callback.detail = [](const SiteCounts &c, const api::ApiInfo *) -> std::string {
      if (!c[Counter::CallbackThreadErrors])
        return "";
      return std::to_string(c[Counter::CallbackThreadErrors]) + " returned an error, last error " +
             std::to_string(c.lastCallbackThreadError);
    };
    callback.summary = "{misuses} of {calls} calls made on the driver's host-callback thread";
    list.push_back(callback);

    EvidenceDeclaration defaultStream;
    defaultStream.checkId = "default-stream";
    defaultStream.appliesTo = [](const api::ApiInfo *api) {
      return api && api::isStreamOrderedWork(*api);
    };
    defaultStream.reached = [](const SiteCounts &c, const api::ApiInfo *) {
      return c[Counter::StreamCalls]; // calls whose stream the probe could read
    };
    defaultStream.misused = [](const SiteCounts &c, const api::ApiInfo *) {
      return c[Counter::LegacyStream];
    };
    defaultStream.skipUnreached = true;
    defaultStream.summary = "{misuses} of {calls} calls used the legacy default stream";
    list.push_back(defaultStream);

    EvidenceDeclaration deviceSync;
    deviceSync.checkId = "device-sync";
    deviceSync.appliesTo = [](const api::ApiInfo *api) {
      return api && api->sync != api::SyncKind::None;
    };
    deviceSync.reached = calls;
    // cudaDeviceSynchronize always waits for the whole device; a stream's
    // synchronization or a synchronous copy only on the legacy default
    // stream; cudaEventSynchronize never.
    deviceSync.misused = [](const SiteCounts &c, const api::ApiInfo *api) {
      return api->sync == api::SyncKind::Device ? c[Counter::Calls] : c[Counter::LegacyStream];
    };
    deviceSync.detail = [](const SiteCounts &c, const api::ApiInfo *api) -> std::string {
      return api->sync != api::SyncKind::Device && c[Counter::LegacyStream]
                 ? "on the legacy default stream"
                 : "";
    };
    deviceSync.summary = "{ran}, blocked the host {hostUs} us";
    list.push_back(deviceSync);

    // The stream-ordered work a library call does inside the library (cuBLAS
    // records events on the handle's stream, CUB and Thrust launch and copy)
    // reaches the probe as runtime calls whose first application frame is
    // the library call: the same counts as default-stream, judged at the
    // handle's uses (related locations) as well as at the finding.
    EvidenceDeclaration libraryStream = defaultStream;
    libraryStream.checkId = "library-default-stream";
    libraryStream.summary =
        "{misuses} of {calls} stream-ordered calls inside the library used the legacy "
        "default stream";
    libraryStream.matchRelatedLocations = true;
    libraryStream.reportUnmatched = false; // default-stream reports those sites
    libraryStream.observedAs = "default-stream"; // one observation per site
    list.push_back(libraryStream);

    EvidenceDeclaration pageable;
    pageable.checkId = "pageable-memcpy-async";
    pageable.appliesTo = [](const api::ApiInfo *api) {
      return api && api::isAsyncHostCopy(*api);
    };
    // Only copies whose host side the probe could tell count as reached: a
    // copy it cannot decode (cudaMemcpy3DAsync's ends live in a struct) or
    // one with no host side neither confirms nor refutes.
    pageable.reached = [](const SiteCounts &c, const api::ApiInfo *) {
      return c[Counter::Pageable] + c[Counter::Pinned];
    };
    pageable.misused = [](const SiteCounts &c, const api::ApiInfo *) { return c[Counter::Pageable]; };
    pageable.detail = [](const SiteCounts &c, const api::ApiInfo *) -> std::string {
      return c[Counter::Pinned] ? std::to_string(c[Counter::Pinned]) + " pinned" : "";
    };
    pageable.summary = "{misuses} of {calls} copies used pageable host memory, {bytes} "
                       "moved, {hostUs} us host time";
    list.push_back(pageable);
    return list;
  }();
  return all;
}

} // namespace

const std::vector<EvidenceDeclaration> &evidenceDeclarations() { return declarations(); }

const EvidenceDeclaration *evidenceFor(const std::string &checkId) {
  for (const EvidenceDeclaration &declaration : declarations())
    if (declaration.checkId == checkId)
      return &declaration;
  return nullptr;
}

std::string observationCheckFor(const std::string &checkId) {
  const EvidenceDeclaration *declaration = evidenceFor(checkId);
  return declaration && declaration->observedAs ? declaration->observedAs : checkId;
}

} // namespace streamlint
