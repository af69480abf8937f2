#pragma once
// Helpers every writer shares: URIs, the dynamic-evidence summary and the
// report order (paths against the base directory: support/Paths.h).

#include "analyzer/Finding.h"
#include "analyzer/support/Paths.h"

#include <optional>
#include <string>
#include <vector>

namespace streamlint {

/// Percent-encodes a path for use in a URI (RFC 3986: keeps unreserved
/// characters and '/').
std::string encodeUriPath(const std::string &path);

/// "file:///abs/path" for an absolute path; a trailing '/' is kept.
std::string fileUri(const std::string &absolutePath);

/// "confirmed: 1200 calls, 3.1 ms" — what the probe saw, for people.
std::string dynamicSummary(const DynamicEvidence &evidence);

/// Human-readable duration: "850 us", "3.1 ms", "2.35 s".
std::string formatDuration(double microseconds);

/// One line saying how incomplete a TU's analysis is and why: after a fatal
/// error (missing include, too many errors) findings after that point are
/// likely missing; after recoverable errors clang went on, and only findings
/// near them may be missing. `errorCount` is the number of clang errors.
std::string incompleteAnalysisMessage(const TranslationUnitProblem &problem,
                                      size_t errorCount);

/// The order people read findings in: runtime-confirmed ones first, by host
/// time spent (descending), then the rest in `findingLess` order.
std::vector<const Finding *> reportOrder(const std::vector<Finding> &findings);

} // namespace streamlint
