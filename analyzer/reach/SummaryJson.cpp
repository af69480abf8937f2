#include "analyzer/reach/SummaryJson.h"

#include <stdexcept>

namespace streamlint::reach {

using nlohmann::json;

json pointsJson(const std::vector<SourcePoint> &points) {
  json list = json::array();
  for (const SourcePoint &p : points)
    list.push_back(pointJson(p));
  return list;
}
std::vector<SourcePoint> pointsFrom(const json &j) {
  std::vector<SourcePoint> points;
  for (const json &p : j)
    points.push_back(pointFrom(p));
  return points;
}

json findingJson(const Finding &f) {
  json fixes = json::array();
  for (const FixIt &fix : f.fixes) {
    json edits = json::array();
    for (const TextEdit &e : fix.edits)
      edits.push_back(editJson(e));
    json entry = {{"description", fix.description}, {"edits", edits},
                  {"applicable", fix.applicable}};
    if (!fix.prerequisites.empty()) {
      json prerequisites = json::array();
      for (const FixPrerequisite &p : fix.prerequisites)
        prerequisites.push_back(
            {{"check", p.checkId}, {"edit", editJson(p.edit)}, {"what", p.what}});
      entry["prerequisites"] = std::move(prerequisites);
    }
    fixes.push_back(std::move(entry));
  }
  json related = json::array();
  for (const RelatedLocation &r : f.related)
    related.push_back({{"location", pointJson(r.location)}, {"message", r.message}});
  return {{"check", f.checkId}, {"severity", severityName(f.severity)},
          {"location", pointJson(f.location)}, {"end", pointJson(f.end)},
          {"message", f.message}, {"related", related}, {"function", f.function},
          {"snippet", f.snippet}, {"fixes", fixes}, {"fingerprint", f.fingerprint}};
}

Severity severityFrom(const json &j) {
  std::string name = j.get<std::string>();
  if (name == "note")
    return Severity::Note;
  if (name == "error")
    return Severity::Error;
  if (name == "warning")
    return Severity::Warning;
  throw std::runtime_error("unknown severity '" + name + "'");
}

Finding findingFrom(const json &j) {
  Finding f;
  f.checkId = j.at("check").get<std::string>();
  f.severity = severityFrom(j.at("severity"));
  f.location = pointFrom(j.at("location"));
  f.end = pointFrom(j.at("end"));
  f.message = j.at("message").get<std::string>();
  // Optional: summaries written before findings carried them lack these.
  if (j.contains("related"))
    for (const json &r : j.at("related"))
      f.related.push_back({pointFrom(r.at("location")), r.at("message").get<std::string>()});
  f.fingerprint = j.value("fingerprint", "");
  f.function = j.at("function").get<std::string>();
  f.snippet = j.at("snippet").get<std::string>();
  for (const json &fix : j.at("fixes")) {
    FixIt parsed;
    parsed.description = fix.at("description").get<std::string>();
    parsed.applicable = fix.at("applicable").get<bool>();
    for (const json &e : fix.at("edits"))
      parsed.edits.push_back(editFrom(e));
    if (fix.contains("prerequisites"))
      for (const json &p : fix.at("prerequisites"))
        parsed.prerequisites.push_back({p.at("check").get<std::string>(), editFrom(p.at("edit")),
                                        p.at("what").get<std::string>()});
    f.fixes.push_back(std::move(parsed));
  }
  return f;
}


} // namespace streamlint::reach
