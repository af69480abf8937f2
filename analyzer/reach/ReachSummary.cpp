#include "analyzer/reach/ReachSummary.h"
#include "analyzer/analysis/OrderingSummary.h"

#include "analyzer/reach/HandleFacts.h"
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
  // An inline wrapper in a header is summarized by every TU that includes
  // it, identically; the first one stays.
  for (ReturnedMemory &returned : summary.returns)
    returns.emplace(returned.usr, std::move(returned));
  for (MethodOverride &override : summary.overrides)
    overriders[override.overridden].push_back(std::move(override.method));
  mergeHandleFacts(handles, std::move(summary.handles));
  addPassedMemory(passed, std::move(summary.passed));
  if (summary.ordering)
    ordering.push_back(std::move(summary.ordering));
}

const ReturnedMemory *returnedMemory(const ProgramSummary &program,
                                     const std::string &usr) {
  std::string next = usr;
  for (unsigned step = 0; step < 16; ++step) { // bounded: forwarding may cycle
    auto it = program.returns.find(next);
    if (it == program.returns.end())
      return nullptr;
    if (it->second.forwardsTo.empty())
      return &it->second;
    next = it->second.forwardsTo;
  }
  return nullptr;
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
    return a.finding.message < b.finding.message;
  };
  std::stable_sort(sites.begin(), sites.end(), siteLess);
  sites.erase(std::unique(sites.begin(), sites.end(),
                          [&](const PendingSite &a, const PendingSite &b) {
                            return !siteLess(a, b) && !siteLess(b, a);
                          }),
              sites.end());
  normalizePassedMemory(passed);
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
  case ReachRoot::PageableReturn: return "pageable-return";
  case ReachRoot::PageableArgument: return "pageable-argument";
  }
  return "loop";
}
static ReachRoot rootFrom(const json &j) {
  std::string name = j.get<std::string>();
  for (ReachRoot root : {ReachRoot::Loop, ReachRoot::ChurningLoop, ReachRoot::Callback,
                         ReachRoot::PageableReturn, ReachRoot::PageableArgument})
    if (name == rootName(root))
      return root;
  throw std::runtime_error("unknown reach root '" + name + "'");
}

json summaryJson(const TranslationUnitSummary &s) {
  json j;
  j["format"] = "streamlint-reach-summary-1";
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
    sites.push_back({{"finding", findingJson(p.finding)}, {"function", p.function},
                     {"loops", pointsJson(p.loops)}, {"root", rootName(p.root)},
                     {"otherwiseReported", p.otherwiseReported},
                     {"otherwiseSeverity", severityName(p.otherwiseSeverity)},
                     {"otherwiseMessage", p.otherwiseMessage},
                     {"allocatingCalls", p.allocatingCalls},
                     {"freeingCalls", p.freeingCalls}, {"parameter", p.parameter}});
  json &returns = j["returns"] = json::array();
  for (const ReturnedMemory &r : s.returns)
    returns.push_back({{"usr", r.usr}, {"name", r.name}, {"kind", r.kind},
                       {"origin", r.origin}, {"location", pointJson(r.location)},
                       {"forwardsTo", r.forwardsTo}});
  j["handles"] = handleFactsJson(s.handles);
  j["passed"] = passedMemoryJson(s.passed);
  if (s.ordering)
    j["ordering"] = json::parse(ordering::toJsonText(*s.ordering));
  json &overrides = j["overrides"] = json::array();
  for (const MethodOverride &o : s.overrides)
    overrides.push_back({{"method", o.method}, {"overridden", o.overridden}});
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
    if (!j.is_object() || j.value("format", "") != "streamlint-reach-summary-1") {
      error = origin + ": not a streamlint reach summary (format "
              "'streamlint-reach-summary-1' expected)";
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
      site.function = p.at("function").get<std::string>();
      site.loops = pointsFrom(p.at("loops"));
      site.root = rootFrom(p.at("root"));
      site.otherwiseReported = p.at("otherwiseReported").get<bool>();
      site.otherwiseSeverity = severityFrom(p.at("otherwiseSeverity"));
      site.otherwiseMessage = p.at("otherwiseMessage").get<std::string>();
      site.allocatingCalls = p.value("allocatingCalls", std::vector<std::string>{});
      site.freeingCalls = p.value("freeingCalls", std::vector<std::string>{});
      site.parameter = p.value("parameter", -1);
      parsed.sites.push_back(std::move(site));
    }
    // Optional: summaries written before wrappers were summarized lack it.
    if (j.contains("returns"))
      for (const json &r : j.at("returns"))
        parsed.returns.push_back({r.at("usr").get<std::string>(),
                                  r.at("name").get<std::string>(),
                                  r.at("kind").get<std::string>(),
                                  r.at("origin").get<std::string>(),
                                  pointFrom(r.at("location")),
                                  r.at("forwardsTo").get<std::string>()});
    // Optional: summaries written before handles were summarized lack it.
    if (j.contains("handles"))
      parsed.handles = handleFactsFrom(j.at("handles"));
    // Optional: summaries written before pointer arguments were summarized.
    if (j.contains("passed"))
      parsed.passed = passedMemoryFrom(j.at("passed"));
    // Optional: only TUs whose checks judge stream ordering carry it.
    if (j.contains("ordering")) {
      std::string why;
      auto facts = std::make_shared<ordering::OrderingFacts>();
      if (!ordering::fromJsonText(j.at("ordering").dump(), *facts, why))
        throw std::runtime_error(why);
      parsed.ordering = std::move(facts);
    }
    // Optional: summaries written before virtual calls were followed.
    if (j.contains("overrides"))
      for (const json &o : j.at("overrides"))
        parsed.overrides.push_back(
            {o.at("method").get<std::string>(), o.at("overridden").get<std::string>()});
    s = std::move(parsed);
    return true;
  } catch (const std::exception &e) {
    error = origin + ": malformed reach summary: " + e.what();
    return false;
  }
}

} // namespace streamlint::reach
