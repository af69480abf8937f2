// Merging the ordering facts of OrderingSummary.h: every TU's, in an order
// that does not depend on which TU came first.
#include "analyzer/analysis/OrderingSummary.h"

#include "llvm/Support/Path.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace streamlint::ordering {

const char *blockingName(Blocking blocking) {
  switch (blocking) {
  case Blocking::Blocking: return "blocking";
  case Blocking::NonBlocking: return "non-blocking";
  case Blocking::Unknown: return "unknown";
  }
  return "unknown";
}

namespace {

std::string pointKey(const SourcePoint &p) {
  return p.file + ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
}

/// A definition's place, ordered by file and line.
using Place = std::pair<std::string, unsigned>;

/// "defined at a/x.cu:3 and at b/x.cu:5": a function whose TUs name two
/// places or more (sorted by their full paths, so the text is the same
/// whatever order TUs came in; each named by its directory and file).
std::string definedDifferently(const std::set<Place> &places) {
  auto shortPlace = [](const Place &place) {
    llvm::StringRef directory = llvm::sys::path::parent_path(place.first);
    std::string name = llvm::sys::path::filename(place.first).str();
    if (!directory.empty())
      name = (llvm::sys::path::filename(directory) + "/" + name).str();
    return name + ":" + std::to_string(place.second);
  };
  auto place = places.begin();
  std::string text = "defined at " + shortPlace(*place);
  text += " and at " + shortPlace(*++place);
  if (places.size() > 2)
    text += " and at " + std::to_string(places.size() - 2) + " more places";
  return text;
}

} // namespace

void OrderingFacts::add(OrderingFacts other) {
  calls.insert(calls.end(), std::make_move_iterator(other.calls.begin()),
               std::make_move_iterator(other.calls.end()));
  functions.insert(functions.end(), std::make_move_iterator(other.functions.begin()),
                   std::make_move_iterator(other.functions.end()));
  writes.insert(writes.end(), std::make_move_iterator(other.writes.begin()),
                std::make_move_iterator(other.writes.end()));
  addressTaken.insert(addressTaken.end(), other.addressTaken.begin(), other.addressTaken.end());
  fixes.insert(fixes.end(), std::make_move_iterator(other.fixes.begin()),
               std::make_move_iterator(other.fixes.end()));
  streamCreations.insert(streamCreations.end(), other.streamCreations.begin(),
                         other.streamCreations.end());
  hostThreads.insert(hostThreads.end(), other.hostThreads.begin(), other.hostThreads.end());
  streamCreators.insert(streamCreators.end(), other.streamCreators.begin(),
                        other.streamCreators.end());
  threadStarters.insert(threadStarters.end(), other.threadStarters.begin(),
                        other.threadStarters.end());
  startupCalls.insert(startupCalls.end(), other.startupCalls.begin(), other.startupCalls.end());
  addressTakers.insert(addressTakers.end(), other.addressTakers.begin(),
                       other.addressTakers.end());
  units.insert(units.end(), std::make_move_iterator(other.units.begin()),
               std::make_move_iterator(other.units.end()));
}

void OrderingFacts::addUnit(OrderingFacts unit) {
  UnitProgramFacts share;
  for (const OrderedFunction &f : unit.functions)
    if (f.isMain && !f.definedAt.file.empty())
      share.mainFile = f.definedAt.file;
  share.streamCreations = unit.streamCreations;
  share.hostThreads = unit.hostThreads;
  share.streamCreators = unit.streamCreators;
  share.threadStarters = unit.threadStarters;
  share.addressTakers = unit.addressTakers;
  units.push_back(std::move(share));
  add(std::move(unit));
}

void OrderingFacts::normalize() {
  // A call in an inline function of a header is seen by every TU that
  // includes it: the same site, the same facts; the first one stays.
  auto callKey = [](const OrderedCall &c) { return std::tie(c.callee, c.caller); };
  std::stable_sort(calls.begin(), calls.end(), [&](const OrderedCall &a, const OrderedCall &b) {
    return std::make_tuple(a.callee, a.caller, pointKey(a.site)) <
           std::make_tuple(b.callee, b.caller, pointKey(b.site));
  });
  calls.erase(std::unique(calls.begin(), calls.end(),
                          [&](const OrderedCall &a, const OrderedCall &b) {
                            return callKey(a) == callKey(b) && pointKey(a.site) == pointKey(b.site);
                          }),
              calls.end());
  // A function defined in several TUs (inline): open if any TU says so;
  // the first summary stands, merged with the later ones (a TU that stored
  // only the function's identity adds its openness alone).
  std::map<std::string, std::set<Place>> places;
  for (const OrderedFunction &f : functions)
    if (!f.definedAt.file.empty())
      places[f.usr].insert({f.definedAt.file, f.definedAt.line});
  std::map<std::string, OrderedFunction> byUsr;
  for (OrderedFunction &f : functions) {
    auto [it, inserted] = byUsr.emplace(f.usr, f);
    if (inserted)
      continue;
    OrderedFunction &kept = it->second;
    if (kept.openBecause.empty())
      kept.openBecause = f.openBecause;
    if (!f.summarized)
      continue;
    if (!kept.summarized) {
      std::string open = std::move(kept.openBecause);
      kept = f;
      kept.openBecause = std::move(open);
      continue;
    }
    if (kept.onlyParameter != f.onlyParameter)
      kept.onlyParameter = -1; // the definitions differ: nothing is known
    if (kept.onlyParameterIfCallees != f.onlyParameterIfCallees ||
        kept.onlyParameterCalls != f.onlyParameterCalls) {
      kept.onlyParameterIfCallees = -1;
      kept.onlyParameterCalls.clear();
    }
    kept.leavesBlockingOnly = kept.leavesBlockingOnly && f.leavesBlockingOnly;
    kept.selectsDevice = kept.selectsDevice || f.selectsDevice;
  }
  functions.clear();
  for (auto &[usr, f] : byUsr) {
    auto defined = places.find(usr);
    if (defined != places.end() && defined->second.size() > 1)
      f.definedDifferently = definedDifferently(defined->second);
    functions.push_back(std::move(f));
  }
  std::stable_sort(writes.begin(), writes.end(), [](const StreamWrite &a, const StreamWrite &b) {
    return std::make_tuple(a.variable, int(a.value.kind), int(a.value.blocking), a.value.spelled) <
           std::make_tuple(b.variable, int(b.value.kind), int(b.value.blocking), b.value.spelled);
  });
  for (std::vector<std::string> *list :
       {&addressTaken, &streamCreations, &hostThreads, &startupCalls}) {
    std::sort(list->begin(), list->end());
    list->erase(std::unique(list->begin(), list->end()), list->end());
  }
  for (std::vector<ProgramEvent> *list : {&streamCreators, &threadStarters, &addressTakers}) {
    auto key = [](const ProgramEvent &e) { return std::tie(e.function, e.what); };
    std::sort(list->begin(), list->end(),
              [&](const ProgramEvent &a, const ProgramEvent &b) { return key(a) < key(b); });
    list->erase(std::unique(list->begin(), list->end(),
                            [&](const ProgramEvent &a, const ProgramEvent &b) {
                              return key(a) == key(b);
                            }),
                list->end());
  }
  std::stable_sort(fixes.begin(), fixes.end(), [](const ConditionalFix &a, const ConditionalFix &b) {
    return std::make_tuple(pointKey(a.finding), a.check, pointKey(a.firstEdit)) <
           std::make_tuple(pointKey(b.finding), b.check, pointKey(b.firstEdit));
  });
  fixes.erase(std::unique(fixes.begin(), fixes.end(),
                          [](const ConditionalFix &a, const ConditionalFix &b) {
                            return a.check == b.check && pointKey(a.finding) == pointKey(b.finding) &&
                                   pointKey(a.firstEdit) == pointKey(b.firstEdit);
                          }),
              fixes.end());
}

} // namespace streamlint::ordering
