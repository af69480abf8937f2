#include "analyzer/reach/ReachResolution.h"

#include <algorithm>
#include <deque>

namespace streamlint::reach {

ReachIndex::ReachIndex(const ProgramSummary &program) : program_(program) {
  for (const CallEdge &edge : program.edges)
    callsFrom_[edge.caller].push_back(&edge);
  computeKinds();
  for (const auto &[key, loop] : program.loops)
    loopKinds_[key] = loop.kinds;
  for (const CallEdge &edge : program.edges)
    for (const SourcePoint &loop : edge.loops)
      loopKinds_[pointKey(loop)] |= transitiveKinds(edge.callee);
  for (ReachRoot root : {ReachRoot::Loop, ReachRoot::ChurningLoop, ReachRoot::Callback})
    search(root);
}

void ReachIndex::computeKinds() {
  for (const auto &[usr, facts] : program_.functions)
    kinds_[usr] = facts.kinds;
  // Fixed point: kinds only grow and there are four bits, so this ends after
  // at most 4 * |functions| rounds; recursion needs no special case.
  bool changed = true;
  while (changed) {
    changed = false;
    for (const CallEdge &edge : program_.edges) {
      auto callee = kinds_.find(edge.callee);
      if (callee == kinds_.end())
        continue;
      unsigned &caller = kinds_[edge.caller];
      unsigned merged = caller | callee->second;
      if (merged != caller) {
        caller = merged;
        changed = true;
      }
    }
  }
}

unsigned ReachIndex::transitiveKinds(const std::string &usr) const {
  auto it = kinds_.find(usr);
  return it == kinds_.end() ? NoApi : it->second;
}

bool ReachIndex::churns(const SourcePoint &loop) const {
  auto it = loopKinds_.find(pointKey(loop));
  unsigned kinds = it == loopKinds_.end() ? NoApi : it->second;
  return (kinds & Allocates) && (kinds & Frees);
}

void ReachIndex::search(ReachRoot root) {
  std::map<std::string, Parent> &parents = parents_[root];
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
        if (root == ReachRoot::ChurningLoop && !churns(loop))
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
}

std::optional<ReachChain> ReachIndex::reach(ReachRoot root,
                                            const std::string &usr) const {
  const std::map<std::string, Parent> &parents = parents_.at(root);
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

void replaceWhere(std::string &message, const std::string &where) {
  size_t at = message.find("{where}");
  if (at != std::string::npos)
    message.replace(at, 7, where);
}

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
  replaceWhere(finding.message, where);
  return finding;
}

/// A copy whose host pointer another TU's function returns: reported when
/// that function (through any forwarding wrappers) returns pageable memory.
std::optional<Finding> resolvedReturn(const PendingSite &site,
                                      const ProgramSummary &program) {
  const ReturnedMemory *memory = returnedMemory(program, site.function);
  Finding finding = site.finding;
  if (memory && memory->kind == "pageable") {
    std::string origin = memory->origin + ", returned by '" + memory->name + "'";
    size_t at = finding.message.find("{origin}");
    if (at != std::string::npos)
      finding.message.replace(at, 8, origin);
    finding.related.push_back(
        {memory->location, "host memory allocated here by " + memory->origin});
    return finding;
  }
  if (memory || !site.otherwiseReported)
    return std::nullopt; // pinned: nothing to say
  finding.severity = site.otherwiseSeverity;
  finding.message = site.otherwiseMessage;
  finding.fixes.clear();
  return finding;
}

} // namespace

std::vector<Finding> resolveSites(ProgramSummary program) {
  program.normalize();
  ReachIndex index(program);
  std::vector<Finding> findings;
  for (const PendingSite &site : program.sites) {
    if (site.root == ReachRoot::PageableReturn) {
      if (std::optional<Finding> finding = resolvedReturn(site, program))
        findings.push_back(std::move(*finding));
      continue;
    }
    if (site.root != ReachRoot::Callback) {
      const LoopFacts *direct = nullptr;
      for (const SourcePoint &loop : site.loops) {
        if (site.root == ReachRoot::ChurningLoop && !index.churns(loop))
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
    if (std::optional<ReachChain> chain = index.reach(site.root, site.function)) {
      findings.push_back(resolved(site, &*chain, nullptr));
      continue;
    }
    if (site.otherwiseReported) {
      Finding finding = site.finding;
      finding.severity = site.otherwiseSeverity;
      finding.message = site.otherwiseMessage;
      finding.fixes.clear();
      findings.push_back(std::move(finding));
    }
  }
  std::stable_sort(findings.begin(), findings.end(), findingLess);
  return findings;
}

} // namespace streamlint::reach
