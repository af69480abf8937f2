// How a check's run-time evidence declaration (checks/CheckEvidence.cpp)
// makes an observation of a site's counts, and how its summary reads.
#include "analyzer/trace/Evidence.h"

#include <algorithm>
#include <cstdio>

namespace streamlint {
namespace {

std::string fixed1(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string formatBytes(std::uint64_t bytes) {
  if (bytes >= (1ull << 20))
    return fixed1(bytes / double(1ull << 20)) + " MiB";
  if (bytes >= (1ull << 10))
    return fixed1(bytes / double(1ull << 10)) + " KiB";
  return std::to_string(bytes) + " B";
}

void replaceAll(std::string &text, const std::string &from, const std::string &to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

} // namespace

bool observe(const EvidenceDeclaration &declaration, const SiteCounts &counts,
             TraceObservation &observation) {
  const api::ApiInfo *api = api::findApi(counts.api);
  if (!declaration.appliesTo(api))
    return false;
  observation.check = declaration.checkId;
  observation.api = std::string(api::baseName(counts.api));
  observation.calls = declaration.reached(counts, api);
  if (declaration.skipUnreached && observation.calls == 0)
    return false;
  observation.misuses = declaration.misused(counts, api);
  observation.hostTimeUs = counts[Counter::HostNs] / 1000.0;
  if (std::string(declaration.summary).find("{bytes}") != std::string::npos)
    observation.bytes = counts[Counter::Bytes];
  observation.detail = declaration.detail ? declaration.detail(counts, api) : "";
  return true;
}

std::string evidenceSummary(const EvidenceDeclaration *declaration, std::uint64_t misuses,
                            std::uint64_t calls, std::uint64_t bytes, double hostTimeUs) {
  std::string text = declaration ? declaration->summary : "{misuses} of {calls} calls misused";
  replaceAll(text, "{misuses}", std::to_string(misuses));
  replaceAll(text, "{calls}", std::to_string(calls));
  replaceAll(text, "{bytes}", formatBytes(bytes));
  replaceAll(text, "{hostUs}", fixed1(hostTimeUs));
  replaceAll(text, "{ran}", calls == 1 ? "ran once" : "ran " + std::to_string(calls) + " times");
  return text;
}

} // namespace streamlint
