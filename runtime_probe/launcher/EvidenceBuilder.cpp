#include "EvidenceBuilder.h"

#include "checks/CheckEvidence.h"

namespace streamlint::probe {
// What each check makes of a site is its evidence declaration
// (checks/CheckEvidence.cpp); nothing here is specific to one check.
std::vector<TraceObservation> observationsFor(const RawSite &site,
                                              const SourceSite &where) {
  std::vector<TraceObservation> out;
  for (const EvidenceDeclaration &declaration : evidenceDeclarations()) {
    if (declaration.observedAs)
      continue; // judged by another check's observations of the same sites
    TraceObservation o;
    if (!observe(declaration, site.counts, o))
      continue;
    o.file = where.file;
    o.line = where.line;
    o.fileGuessed = where.fileGuessed;
    o.function = where.function;
    o.libraryCall = where.libraryCall;
    o.library = where.library;
    o.callers = where.callers;
    out.push_back(std::move(o));
  }
  return out;
}

void EvidenceBuilder::add(const RawSite &site, const SourceSite &where) {
  for (TraceObservation &o : observationsFor(site, where)) {
    // Different call paths to one line sum, unless their lines lie in code
    // the merge may find outside the program: then the caller decides.
    std::string firstCaller = o.callers.empty() ? "" : o.callers.front().file + ":" +
                                                           std::to_string(o.callers.front().line);
    auto key = std::make_tuple(o.check, o.file, o.line, firstCaller);
    auto it = merged_.find(key);
    if (it == merged_.end())
      merged_.emplace(key, std::move(o));
    else
      addObservationCounts(it->second, o);
  }
}

std::vector<TraceObservation> EvidenceBuilder::observations() const {
  std::vector<TraceObservation> out;
  for (const auto &entry : merged_)
    out.push_back(entry.second);
  return out;
}

} // namespace streamlint::probe
