#pragma once
// The checks' run-time evidence: one declaration per check the probe
// observes (checks/CheckEvidence.cpp), in the checks' own folder. No clang
// and no LLVM: the probe's launcher links it as the trace merge does. A
// check without a declaration says so on its doc page ("## Run-time
// evidence" then "None"), which tests/checks/CheckConsistencyTest.cpp reads.

#include "analyzer/trace/Evidence.h"

#include <string>
#include <vector>

namespace streamlint {

/// Every check the probe observes, sorted by id.
const std::vector<EvidenceDeclaration> &evidenceDeclarations();
/// The declaration for `checkId`; null when the probe does not observe it.
const EvidenceDeclaration *evidenceFor(const std::string &checkId);
/// The check whose observations judge `checkId`'s findings: its
/// declaration's observedAs, else itself.
std::string observationCheckFor(const std::string &checkId);

} // namespace streamlint
