#include "analyzer/reach/ReachSummary.h"

#include "analyzer/reach/SummaryJson.h"

#include <algorithm>
#include <tuple>

namespace streamlint::reach {

using nlohmann::json;

std::string pointKey(const SourcePoint &point) {
  return point.file + ":" + std::to_string(point.line) + ":" +
         std::to_string(point.column);
}

bool pointLess(const SourcePoint &a, const SourcePoint &b) {
  return std::tie(a.file, a.line, a.column) < std::tie(b.file, b.line, b.column);
}

static bool pointEqual(const SourcePoint &a, const SourcePoint &b) {
  return !pointLess(a, b) && !pointLess(b, a);
}

void ProgramSummary::add(TranslationUnitSummary summary) {
  for (FunctionFacts &function : summary.functions) {
    auto [it, inserted] = functions.emplace(function.usr, function);
    if (!inserted) // an inline function seen by several TUs
      it->second.kinds |= function.kinds;
  }
  for (LoopFacts &loop : summary.loops) {
    auto [it, inserted] = loops.emplace(pointKey(loop.location), loop);
    if (!inserted)
      it->second.kinds |= loop.kinds;
  }
  for (CallEdge &edge : summary.edges)
    edges.push_back(std::move(edge));
  for (CallbackRegistration &callback : summary.callbacks)
    callbacks.push_back(std::move(callback));
  for (PendingSite &site : summary.sites)
    sites.push_back(std::move(site));
  for (MethodOverride &override : summary.overrides)
    overriders[override.overridden].push_back(std::move(override.method));
  // Each part merges its TUs' facts itself, when it resolves them.
  for (auto &[id, facts] : summary.parts)
    if (facts)
      parts[id].push_back(std::move(facts));
}

void ProgramSummary::normalize() {
  auto edgeKey = [](const CallEdge &e) {
    return std::tie(e.caller, e.site.file, e.site.line, e.site.column, e.callee);
  };
  std::sort(edges.begin(), edges.end(),
            [&](const CallEdge &a, const CallEdge &b) { return edgeKey(a) < edgeKey(b); });
  edges.erase(std::unique(edges.begin(), edges.end(),
                          [&](const CallEdge &a, const CallEdge &b) {
                            return edgeKey(a) == edgeKey(b);
                          }),
              edges.end());
  auto callbackKey = [](const CallbackRegistration &c) {
    return std::tie(c.site.file, c.site.line, c.site.column, c.callback);
  };
  std::sort(callbacks.begin(), callbacks.end(),
            [&](const auto &a, const auto &b) { return callbackKey(a) < callbackKey(b); });
  callbacks.erase(std::unique(callbacks.begin(), callbacks.end(),
                              [&](const auto &a, const auto &b) {
                                return callbackKey(a) == callbackKey(b);
                              }),
                  callbacks.end());
  // A site in a header included by several TUs is one site.
  auto siteLess = [](const PendingSite &a, const PendingSite &b) {
    if (a.finding.checkId != b.finding.checkId)
      return a.finding.checkId < b.finding.checkId;
    if (!pointEqual(a.finding.location, b.finding.location))
      return pointLess(a.finding.location, b.finding.location);
    if (a.finding.message != b.finding.message)
      return a.finding.message < b.finding.message;
    return a.messageTail < b.messageTail;
  };
  std::stable_sort(sites.begin(), sites.end(), siteLess);
  sites.erase(std::unique(sites.begin(), sites.end(),
                          [&](const PendingSite &a, const PendingSite &b) {
                            return !siteLess(a, b) && !siteLess(b, a);
                          }),
              sites.end());
  for (auto &[method, list] : overriders) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
  }
}

// ---- JSON ------------------------------------------------------------------

static const char *rootName(ReachRoot root) {
  switch (root) {
  case ReachRoot::Loop: return "loop";
  case ReachRoot::ChurningLoop: return "churning-loop";
  case ReachRoot::Callback: return "callback";
  }
  return "loop";
}
static ReachRoot rootFrom(const json &j) {
  std::string name = j.get<std::string>();
  for (ReachRoot root : {ReachRoot::Loop, ReachRoot::ChurningLoop, ReachRoot::Callback})
    if (name == rootName(root))
      return root;
  throw std::runtime_error("unknown reach root '" + name + "'");
}

json summaryJson(const TranslationUnitSummary &s) {
  json j;
  j["format"] = kSummaryFormat;
  j["mainFile"] = s.mainFile;
  json &functions = j["functions"] = json::array();
  for (const FunctionFacts &f : s.functions)
    functions.push_back({{"usr", f.usr}, {"name", f.name},
                         {"location", pointJson(f.location)}, {"kinds", f.kinds}});
  json &edges = j["edges"] = json::array();
  for (const CallEdge &e : s.edges)
    edges.push_back({{"caller", e.caller}, {"callee", e.callee},
                     {"calleeName", e.calleeName}, {"site", pointJson(e.site)},
                     {"loops", pointsJson(e.loops)},
                     {"calleeIdentifier", e.calleeIdentifier},
                     {"virtual", e.virtualCall}});
  json &loops = j["loops"] = json::array();
  for (const LoopFacts &l : s.loops)
    loops.push_back({{"location", pointJson(l.location)}, {"kind", l.kind},
                     {"kinds", l.kinds}});
  json &callbacks = j["callbacks"] = json::array();
  for (const CallbackRegistration &c : s.callbacks)
    callbacks.push_back({{"callback", c.callback}, {"callbackName", c.callbackName},
                         {"registrar", c.registrar}, {"site", pointJson(c.site)}});
  json &sites = j["sites"] = json::array();
  for (const PendingSite &p : s.sites)
    sites.push_back({{"finding", findingJson(p.finding)}, {"messageTail", p.messageTail},
                     {"function", p.function},
                     {"loops", pointsJson(p.loops)}, {"root", rootName(p.root)},
                     {"otherwiseReported", p.otherwiseReported},
                     {"otherwiseSeverity", severityName(p.otherwiseSeverity)},
                     {"otherwiseMessage", p.otherwiseMessage},
                     {"allocatingCalls", p.allocatingCalls},
                     {"freeingCalls", p.freeingCalls}});
  json &overrides = j["overrides"] = json::array();
  for (const MethodOverride &o : s.overrides)
    overrides.push_back({{"method", o.method}, {"overridden", o.overridden}});
  json &parts = j["parts"] = json::object();
  for (const auto &[id, facts] : s.parts)
    if (facts)
      parts[id] = facts->toJson();
  return j;
}

std::string toJson(const TranslationUnitSummary &s) { return summaryJson(s).dump(1); }

bool fromJson(const std::string &text, const std::string &origin,
              TranslationUnitSummary &s, std::string &error) {
  json j;
  try {
    j = json::parse(text);
  } catch (const std::exception &e) {
    error = origin + ": malformed reach summary: " + e.what();
    return false;
  }
  return summaryFrom(j, origin, s, error);
}

bool summaryFrom(const json &j, const std::string &origin, TranslationUnitSummary &s,
                 std::string &error) {
  try {
    if (!j.is_object() || j.value("format", "") != kSummaryFormat) {
      error = origin + ": not a streamlint reach summary (format "
              "'" + std::string(kSummaryFormat) + "' expected)";
      return false;
    }
    TranslationUnitSummary parsed;
    parsed.mainFile = j.at("mainFile").get<std::string>();
    for (const json &f : j.at("functions"))
      parsed.functions.push_back({f.at("usr").get<std::string>(),
                                  f.at("name").get<std::string>(),
                                  pointFrom(f.at("location")),
                                  f.at("kinds").get<unsigned>()});
    for (const json &e : j.at("edges"))
      parsed.edges.push_back({e.at("caller").get<std::string>(),
                              e.at("callee").get<std::string>(),
                              e.at("calleeName").get<std::string>(),
                              pointFrom(e.at("site")), pointsFrom(e.at("loops")),
                              e.value("calleeIdentifier", ""),
                              e.value("virtual", false)});
    for (const json &l : j.at("loops"))
      parsed.loops.push_back({pointFrom(l.at("location")),
                              l.at("kind").get<std::string>(),
                              l.at("kinds").get<unsigned>()});
    for (const json &c : j.at("callbacks"))
      parsed.callbacks.push_back({c.at("callback").get<std::string>(),
                                  c.at("callbackName").get<std::string>(),
                                  c.at("registrar").get<std::string>(),
                                  pointFrom(c.at("site"))});
    for (const json &p : j.at("sites")) {
      PendingSite site;
      site.finding = findingFrom(p.at("finding"));
      site.messageTail = p.at("messageTail").get<std::string>();
      site.function = p.at("function").get<std::string>();
      site.loops = pointsFrom(p.at("loops"));
      site.root = rootFrom(p.at("root"));
      site.otherwiseReported = p.at("otherwiseReported").get<bool>();
      site.otherwiseSeverity = severityFrom(p.at("otherwiseSeverity"));
      site.otherwiseMessage = p.at("otherwiseMessage").get<std::string>();
      site.allocatingCalls = p.value("allocatingCalls", std::vector<std::string>{});
      site.freeingCalls = p.value("freeingCalls", std::vector<std::string>{});
      parsed.sites.push_back(std::move(site));
    }
    // Optional: summaries written before virtual calls were followed.
    if (j.contains("overrides"))
      for (const json &o : j.at("overrides"))
        parsed.overrides.push_back(
            {o.at("method").get<std::string>(), o.at("overridden").get<std::string>()});
    // Each part reads its own facts; a part no one registered is refused
    // (the entry or shard part is then rebuilt or rejected).
    for (const auto &item : j.at("parts").items()) {
      const std::string &id = item.key();
      const WholeProgramPart *part = findPart(id);
      if (!part || !part->read)
        throw std::runtime_error("unknown whole-program part '" + id + "'");
      try {
        parsed.parts[id] = part->read(item.value());
      } catch (const std::exception &e) {
        throw std::runtime_error("part '" + id + "': " + e.what());
      }
    }
    s = std::move(parsed);
    return true;
  } catch (const std::exception &e) {
    error = origin + ": malformed reach summary: " + e.what();
    return false;
  }
}

} // namespace streamlint::reach
