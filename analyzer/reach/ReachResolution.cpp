#include "analyzer/reach/ReachResolution.h"
#include "analyzer/reach/VirtualCalls.h"

#include <algorithm>
#include <deque>

namespace streamlint::reach {

ReachIndex::ReachIndex(const ProgramSummary &program) : program_(program) {
  for (const CallEdge &edge : program.edges)
    callsFrom_[edge.caller].push_back(&edge);
  kinds_ = computeKinds(nullptr);
  for (ReachRoot root : {ReachRoot::Loop, ReachRoot::ChurningLoop, ReachRoot::Callback})
    parents_[root] = search(root, kinds_);
}

namespace {
bool named(const std::vector<std::string> &names, const std::string &identifier) {
  return !identifier.empty() &&
         std::find(names.begin(), names.end(), identifier) != names.end();
}
} // namespace

ReachIndex::KindIndex ReachIndex::computeKinds(const PendingSite *options) const {
  // Calls of functions the options name count as that kind at the call.
  auto optionKinds = [&](const CallEdge &edge) -> unsigned {
    if (!options)
      return NoApi;
    return (named(options->allocatingCalls, edge.calleeIdentifier) ? Allocates : NoApi) |
           (named(options->freeingCalls, edge.calleeIdentifier) ? Frees : NoApi);
  };
  KindIndex index;
  for (const auto &[usr, facts] : program_.functions)
    index.functions[usr] = facts.kinds;
  for (const CallEdge &edge : program_.edges)
    if (unsigned kinds = optionKinds(edge))
      index.functions[edge.caller] |= kinds;
  // Fixed point: kinds only grow and there are four bits, so this ends after
  // at most 4 * |functions| rounds; recursion needs no special case.
  bool changed = true;
  while (changed) {
    changed = false;
    for (const CallEdge &edge : program_.edges) {
      auto callee = index.functions.find(edge.callee);
      if (callee == index.functions.end())
        continue;
      unsigned &caller = index.functions[edge.caller];
      unsigned merged = caller | callee->second;
      if (merged != caller) {
        caller = merged;
        changed = true;
      }
    }
  }
  for (const auto &[key, loop] : program_.loops)
    index.loops[key] = loop.kinds;
  for (const CallEdge &edge : program_.edges) {
    auto callee = index.functions.find(edge.callee);
    unsigned kinds = (callee == index.functions.end() ? NoApi : callee->second) |
                     optionKinds(edge);
    for (const SourcePoint &loop : edge.loops)
      index.loops[pointKey(loop)] |= kinds;
  }
  return index;
}

unsigned ReachIndex::transitiveKinds(const std::string &usr) const {
  auto it = kinds_.functions.find(usr);
  return it == kinds_.functions.end() ? NoApi : it->second;
}

bool ReachIndex::churns(const KindIndex &kinds, const SourcePoint &loop) {
  auto it = kinds.loops.find(pointKey(loop));
  unsigned bits = it == kinds.loops.end() ? NoApi : it->second;
  return (bits & Allocates) && (bits & Frees);
}

bool ReachIndex::churns(const SourcePoint &loop) const { return churns(kinds_, loop); }

bool ReachIndex::churns(const SourcePoint &loop, const PendingSite &site) const {
  if (site.allocatingCalls.empty() && site.freeingCalls.empty())
    return churns(loop);
  return churns(withOptions(site).kinds, loop);
}

const ReachIndex::OptionIndex &ReachIndex::withOptions(const PendingSite &site) const {
  std::string key;
  for (const std::string &name : site.allocatingCalls)
    key += name + ";";
  key += "|";
  for (const std::string &name : site.freeingCalls)
    key += name + ";";
  auto found = byOptions_.find(key);
  if (found != byOptions_.end())
    return found->second;
  OptionIndex index;
  index.kinds = computeKinds(&site);
  index.churningParents = search(ReachRoot::ChurningLoop, index.kinds);
  return byOptions_.emplace(key, std::move(index)).first->second;
}

ReachIndex::Parents ReachIndex::search(ReachRoot root, const KindIndex &kinds) const {
  Parents parents;
  std::deque<std::string> queue;
  if (root == ReachRoot::Callback) {
    for (const CallbackRegistration &callback : program_.callbacks)
      if (parents.emplace(callback.callback, Parent{nullptr, nullptr, &callback}).second)
        queue.push_back(callback.callback);
  } else {
    // Roots: calls made inside a (churning) loop, innermost qualifying loop.
    std::vector<std::pair<const LoopFacts *, const CallEdge *>> roots;
    for (const CallEdge &edge : program_.edges) {
      for (const SourcePoint &loop : edge.loops) {
        if (root == ReachRoot::ChurningLoop && !churns(kinds, loop))
          continue;
        auto facts = program_.loops.find(pointKey(loop));
        if (facts != program_.loops.end())
          roots.push_back({&facts->second, &edge});
        break;
      }
    }
    std::stable_sort(roots.begin(), roots.end(), [](const auto &a, const auto &b) {
      if (pointLess(a.first->location, b.first->location) ||
          pointLess(b.first->location, a.first->location))
        return pointLess(a.first->location, b.first->location);
      return pointLess(a.second->site, b.second->site);
    });
    for (const auto &[loop, edge] : roots)
      if (parents.emplace(edge->callee, Parent{edge, loop, nullptr}).second)
        queue.push_back(edge->callee);
  }
  while (!queue.empty()) {
    std::string usr = queue.front();
    queue.pop_front();
    auto calls = callsFrom_.find(usr);
    if (calls == callsFrom_.end())
      continue;
    for (const CallEdge *edge : calls->second)
      if (parents.emplace(edge->callee, Parent{edge, nullptr, nullptr}).second)
        queue.push_back(edge->callee);
  }
  return parents;
}

std::optional<ReachChain> ReachIndex::reach(ReachRoot root,
                                            const std::string &usr) const {
  return chainTo(parents_.at(root), usr);
}

std::optional<ReachChain> ReachIndex::reach(const PendingSite &site) const {
  if (site.root == ReachRoot::ChurningLoop &&
      !(site.allocatingCalls.empty() && site.freeingCalls.empty()))
    return chainTo(withOptions(site).churningParents, site.function);
  return reach(site.root, site.function);
}

std::optional<ReachChain> ReachIndex::chainTo(const Parents &parents,
                                              const std::string &usr) const {
  auto it = parents.find(usr);
  if (it == parents.end())
    return std::nullopt;
  ReachChain chain;
  // Each function has one parent and BFS parents are strictly closer to a
  // root, so this walk ends.
  while (true) {
    const Parent &parent = it->second;
    if (parent.via)
      chain.calls.push_back(parent.via);
    if (parent.loop || parent.callback) {
      chain.loop = parent.loop;
      chain.callback = parent.callback;
      break;
    }
    it = parents.find(parent.via->caller);
  }
  std::reverse(chain.calls.begin(), chain.calls.end());
  return chain;
}

std::string describePoint(const SourcePoint &point, const std::string &file) {
  if (point.file == file)
    return "line " + std::to_string(point.line);
  std::string name = point.file.substr(point.file.find_last_of('/') + 1);
  return name + ":" + std::to_string(point.line);
}

namespace {

/// "through run() -> step()" with related locations for each call.
std::string describeCalls(const ReachChain &chain, Finding &finding) {
  std::string text;
  size_t shown = std::min<size_t>(chain.calls.size(), MaxReportedChainSteps);
  for (size_t i = 0; i < shown; ++i) {
    const CallEdge &edge = *chain.calls[i];
    text += (i ? " -> " : " through ") + edge.calleeName;
    finding.related.push_back({edge.site, "calls '" + edge.calleeName + "' here"});
  }
  if (shown < chain.calls.size())
    text += " -> ... (chain of " + std::to_string(chain.calls.size()) +
            " calls, first " + std::to_string(shown) + " shown)";
  return text;
}

Finding resolved(const PendingSite &site, const ReachChain *chain,
                 const LoopFacts *directLoop) {
  Finding finding = site.finding;
  const std::string &file = finding.location.file;
  std::string where;
  if (directLoop) {
    where = "inside the loop at " +
            describePoint(directLoop->location, file);
    finding.related.push_back({directLoop->location, directLoop->kind + " loop"});
  } else if (chain->loop) {
    where = "on a hot path: called from the loop at " +
            describePoint(chain->loop->location, file);
    finding.related.push_back({chain->loop->location, chain->loop->kind + " loop"});
    where += describeCalls(*chain, finding);
  } else {
    const CallbackRegistration &callback = *chain->callback;
    where = "in host callback '" + callback.callbackName + "' registered with " +
            callback.registrar + " at " + describePoint(callback.site, file);
    finding.related.push_back({callback.site, "'" + callback.callbackName +
                                                  "' registered as a host callback here"});
    where += describeCalls(*chain, finding);
  }
  // The check's words around where the site runs (PendingSite).
  finding.message += where + site.messageTail;
  return finding;
}

/// A site no root decided: its note (device-sync off a hot path, an unknown
/// host memory under Strict), or nothing.
std::optional<Finding> otherwise(const PendingSite &site) {
  if (!site.otherwiseReported)
    return std::nullopt;
  Finding finding = site.finding;
  finding.severity = site.otherwiseSeverity;
  finding.message = site.otherwiseMessage;
  finding.fixes.clear();
  return finding;
}

} // namespace

std::vector<Finding> resolveSites(ProgramSummary program) {
  program.normalize();
  addOverriderEdges(program);
  ReachIndex index(program);
  std::vector<Finding> findings;
  for (const PendingSite &site : program.sites) {
    if (site.root != ReachRoot::Callback) {
      const LoopFacts *direct = nullptr;
      for (const SourcePoint &loop : site.loops) {
        if (site.root == ReachRoot::ChurningLoop && !index.churns(loop, site))
          continue;
        auto facts = program.loops.find(pointKey(loop));
        if (facts != program.loops.end())
          direct = &facts->second;
        break;
      }
      if (direct) {
        findings.push_back(resolved(site, nullptr, direct));
        continue;
      }
    }
    if (std::optional<ReachChain> chain = index.reach(site)) {
      findings.push_back(resolved(site, &*chain, nullptr));
      continue;
    }
    if (std::optional<Finding> finding = otherwise(site))
      findings.push_back(std::move(*finding));
  }
  // Each part resolves every TU's facts, worded by itself.
  ProgramView view{program, index};
  for (const auto &[id, facts] : program.parts) {
    const WholeProgramPart *part = findPart(id);
    if (!part || !part->resolve)
      continue;
    for (Finding &finding : part->resolve(facts, view))
      findings.push_back(std::move(finding));
  }
  std::stable_sort(findings.begin(), findings.end(), findingLess);
  return findings;
}

void amendFindings(const std::map<std::string, std::vector<PartFactsPtr>> &parts,
                   std::vector<Finding> &findings) {
  for (const auto &[id, facts] : parts)
    if (const WholeProgramPart *part = findPart(id); part && part->amend)
      part->amend(facts, findings);
}

} // namespace streamlint::reach
