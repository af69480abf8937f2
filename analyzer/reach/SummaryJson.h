#pragma once
// JSON forms of the values whole-program summaries carry (source points,
// edits, pending findings), shared by every part of the summary's JSON.

#include "analyzer/EditJson.h"
#include "analyzer/Finding.h"
#include "analyzer/reach/ReachSummary.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace streamlint::reach {

using streamlint::pointFrom; // analyzer/EditJson.h
using streamlint::pointJson;
nlohmann::json pointsJson(const std::vector<SourcePoint> &points);
std::vector<SourcePoint> pointsFrom(const nlohmann::json &j);
using streamlint::editFrom;
using streamlint::editJson;
/// A finding with its related locations, fixes and fingerprint (not its
/// dynamic evidence): pending findings in summaries and parts, a TU's
/// findings in the project index.
nlohmann::json findingJson(const Finding &f);
Finding findingFrom(const nlohmann::json &j);
Severity severityFrom(const nlohmann::json &j);
/// A TU's whole summary as a JSON value (toJson() is its text), and back;
/// errors name `origin`.
nlohmann::json summaryJson(const TranslationUnitSummary &summary);
bool summaryFrom(const nlohmann::json &j, const std::string &origin,
                 TranslationUnitSummary &summary, std::string &error);

} // namespace streamlint::reach
