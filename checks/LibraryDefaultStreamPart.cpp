#include "checks/LibraryDefaultStreamPart.h"

#include "analyzer/reach/ReachSummary.h"
#include "analyzer/reach/SummaryJson.h"

#include <algorithm>
#include <tuple>

namespace streamlint {

using reach::findingFrom;
using reach::findingJson;
using reach::pointFrom;
using reach::pointJson;
using reach::pointKey;
using reach::pointLess;

namespace {

/// Deeper chains of helpers passing a handle on are not followed.
constexpr unsigned MaxPassDepth = 5;
/// Unbound uses listed as related locations of one finding.
constexpr size_t MaxListedUses = 8;

bool sameEvent(const HandleEvent &a, const HandleEvent &b) {
  return a.kind == b.kind && pointKey(a.site) == pointKey(b.site) &&
         a.callee == b.callee && a.parameter == b.parameter;
}

/// What a function does with a handle it receives as a parameter.
struct PassEffect {
  bool binds = false;
  bool unknown = false;              // not summarized, escapes or too deep
  const HandleEvent *work = nullptr; // the first library call doing work
};

class HandleResolver {
public:
  explicit HandleResolver(const std::map<std::string, HandleFacts> &program)
      : program_(program) {}

  std::vector<Finding> findings() const {
    std::vector<Finding> result;
    for (const auto &[key, facts] : program_)
      if (facts.scope != HandleScope::Parameter && !facts.escapes)
        resolve(facts, result);
    return result;
  }

private:
  /// An event with a Pass resolved into a bind or work.
  struct Resolved {
    const HandleEvent *event;
    bool binds;
    const HandleEvent *work; // the event itself, or the work inside a Pass
  };

  PassEffect effectOf(const std::string &callee, unsigned parameter,
                      unsigned depth) const {
    PassEffect effect;
    auto found = program_.find(parameterHandleKey(callee, parameter));
    if (found == program_.end() || found->second.escapes || depth >= MaxPassDepth) {
      effect.unknown = true; // defined nowhere we analyzed: it may bind
      return effect;
    }
    for (const HandleEvent &event : found->second.events) {
      switch (event.kind) {
      case HandleEventKind::Bind:
        effect.binds = true;
        break;
      case HandleEventKind::Work:
        if (!effect.work)
          effect.work = &event;
        break;
      case HandleEventKind::Pass: {
        PassEffect inner = effectOf(event.callee, event.parameter, depth + 1);
        effect.binds |= inner.binds;
        effect.unknown |= inner.unknown;
        if (!effect.work)
          effect.work = inner.work;
        break;
      }
      case HandleEventKind::Create:
        effect.unknown = true; // re-created inside: another handle
        break;
      }
    }
    return effect;
  }

  void resolve(const HandleFacts &facts, std::vector<Finding> &result) const {
    std::vector<Resolved> resolved;
    for (const HandleEvent &event : facts.events) {
      if (event.kind == HandleEventKind::Pass) {
        PassEffect effect = effectOf(event.callee, event.parameter, 0);
        if (effect.unknown)
          return; // a function we cannot follow may bind it: quiet
        resolved.push_back({&event, effect.binds, effect.binds ? nullptr : effect.work});
      } else {
        resolved.push_back({&event, event.kind == HandleEventKind::Bind,
                            event.kind == HandleEventKind::Work ? &event : nullptr});
      }
    }
    bool anyBind = std::any_of(resolved.begin(), resolved.end(),
                               [](const Resolved &r) { return r.binds; });
    for (const Resolved &creation : resolved)
      if (creation.event->kind == HandleEventKind::Create && creation.event->finding)
        if (std::optional<Finding> finding = unboundUses(facts, creation, resolved, anyBind))
          result.push_back(std::move(*finding));
  }

  /// The creation's finding if work runs on the handle before any bind:
  /// in the creating function, work after the creation with no bind in
  /// between (source order); elsewhere, work when nothing binds it at all.
  std::optional<Finding> unboundUses(const HandleFacts &facts, const Resolved &creation,
                                     const std::vector<Resolved> &resolved,
                                     bool anyBind) const {
    const HandleEvent &created = *creation.event;
    std::vector<const Resolved *> uses;
    for (const Resolved &use : resolved) {
      if (!use.work)
        continue;
      if (use.event->function == created.function) {
        if (!pointLess(created.site, use.event->site))
          continue;
        bool bound = std::any_of(resolved.begin(), resolved.end(), [&](const Resolved &b) {
          return b.binds && b.event->function == created.function &&
                 pointLess(created.site, b.event->site) &&
                 pointLess(b.event->site, use.event->site);
        });
        if (bound)
          continue;
      } else if (facts.scope == HandleScope::Local || anyBind) {
        continue;
      }
      uses.push_back(&use);
    }
    if (uses.empty())
      return std::nullopt;
    Finding finding = *created.finding;
    for (size_t i = 0; i < uses.size() && i < MaxListedUses; ++i) {
      const Resolved &use = *uses[i];
      if (use.event->kind == HandleEventKind::Pass) {
        finding.related.push_back({use.event->site, "'" + use.event->call +
                                                        "' does work with '" + facts.name +
                                                        "' on the default stream"});
        finding.related.push_back(
            {use.work->site, use.work->call + " runs here without a stream"});
      } else {
        finding.related.push_back(
            {use.event->site, use.event->call + " runs on the default stream here"});
      }
    }
    return finding;
  }

  const std::map<std::string, HandleFacts> &program_;
};

} // namespace

std::string parameterHandleKey(const std::string &functionUsr, unsigned index) {
  return functionUsr + "#" + std::to_string(index);
}

void mergeHandleFacts(std::map<std::string, HandleFacts> &program,
                      std::vector<HandleFacts> facts) {
  for (HandleFacts &handle : facts) {
    auto [it, inserted] = program.emplace(handle.key, HandleFacts());
    HandleFacts &merged = it->second;
    if (inserted) {
      merged.key = handle.key;
      merged.name = handle.name;
      merged.scope = handle.scope;
    }
    merged.escapes |= handle.escapes;
    for (HandleEvent &event : handle.events)
      if (std::none_of(merged.events.begin(), merged.events.end(),
                       [&](const HandleEvent &seen) { return sameEvent(seen, event); }))
        merged.events.push_back(std::move(event));
    // The same order whatever order the TUs came in.
    std::stable_sort(merged.events.begin(), merged.events.end(),
                     [](const HandleEvent &a, const HandleEvent &b) {
                       return pointLess(a.site, b.site);
                     });
  }
}

std::vector<Finding> resolveHandles(const std::map<std::string, HandleFacts> &program) {
  return HandleResolver(program).findings();
}

// ---- JSON ------------------------------------------------------------------

namespace {

const char *kindName(HandleEventKind kind) {
  switch (kind) {
  case HandleEventKind::Create: return "create";
  case HandleEventKind::Bind: return "bind";
  case HandleEventKind::Work: return "work";
  case HandleEventKind::Pass: return "pass";
  }
  return "work";
}

const char *scopeName(HandleScope scope) {
  switch (scope) {
  case HandleScope::Shared: return "shared";
  case HandleScope::Local: return "local";
  case HandleScope::Parameter: return "parameter";
  }
  return "shared";
}

template <typename Enum, size_t N>
Enum enumFrom(const nlohmann::json &j, const Enum (&values)[N],
              const char *(*name)(Enum), const char *what) {
  std::string spelled = j.get<std::string>();
  for (Enum value : values)
    if (spelled == name(value))
      return value;
  throw std::runtime_error(std::string("unknown ") + what + " '" + spelled + "'");
}

} // namespace

nlohmann::json handleFactsJson(const std::vector<HandleFacts> &handles) {
  nlohmann::json list = nlohmann::json::array();
  for (const HandleFacts &h : handles) {
    nlohmann::json events = nlohmann::json::array();
    for (const HandleEvent &e : h.events) {
      nlohmann::json event = {{"kind", kindName(e.kind)}, {"site", pointJson(e.site)},
                              {"function", e.function}, {"call", e.call},
                              {"callee", e.callee}, {"parameter", e.parameter}};
      if (e.finding)
        event["finding"] = findingJson(*e.finding);
      events.push_back(std::move(event));
    }
    list.push_back({{"key", h.key}, {"name", h.name}, {"scope", scopeName(h.scope)},
                    {"escapes", h.escapes}, {"events", std::move(events)}});
  }
  return list;
}

std::vector<HandleFacts> handleFactsFrom(const nlohmann::json &j) {
  static const HandleEventKind kinds[] = {HandleEventKind::Create, HandleEventKind::Bind,
                                          HandleEventKind::Work, HandleEventKind::Pass};
  static const HandleScope scopes[] = {HandleScope::Shared, HandleScope::Local,
                                       HandleScope::Parameter};
  std::vector<HandleFacts> handles;
  for (const nlohmann::json &h : j) {
    HandleFacts facts;
    facts.key = h.at("key").get<std::string>();
    facts.name = h.at("name").get<std::string>();
    facts.scope = enumFrom(h.at("scope"), scopes, scopeName, "handle scope");
    facts.escapes = h.at("escapes").get<bool>();
    for (const nlohmann::json &e : h.at("events")) {
      HandleEvent event;
      event.kind = enumFrom(e.at("kind"), kinds, kindName, "handle event");
      event.site = pointFrom(e.at("site"));
      event.function = e.at("function").get<std::string>();
      event.call = e.at("call").get<std::string>();
      event.callee = e.at("callee").get<std::string>();
      event.parameter = e.at("parameter").get<unsigned>();
      if (e.contains("finding"))
        event.finding = findingFrom(e.at("finding"));
      facts.events.push_back(std::move(event));
    }
    handles.push_back(std::move(facts));
  }
  return handles;
}

nlohmann::json LibraryHandleFacts::toJson() const { return handleFactsJson(handles); }

PartFactsPtr LibraryHandleFacts::withoutFixes() const {
  auto copy = std::make_shared<LibraryHandleFacts>(*this);
  for (HandleFacts &handle : copy->handles)
    for (HandleEvent &event : handle.events)
      if (event.finding)
        event.finding->fixes.clear();
  return copy;
}

WholeProgramPart libraryDefaultStreamPart() {
  WholeProgramPart part;
  part.id = "library-default-stream";
  part.read = [](const nlohmann::json &j) -> PartFactsPtr {
    auto facts = std::make_shared<LibraryHandleFacts>();
    facts->handles = handleFactsFrom(j);
    return facts;
  };
  part.resolve = [](const std::vector<PartFactsPtr> &units, const ProgramView &) {
    std::map<std::string, HandleFacts> program;
    for (const PartFactsPtr &unit : units)
      mergeHandleFacts(program, static_cast<const LibraryHandleFacts &>(*unit).handles);
    return resolveHandles(program);
  };
  return part;
}

} // namespace streamlint
