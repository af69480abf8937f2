#pragma once
// Small hand-made program summaries for the reach tests.

#include "analyzer/reach/ReachSummary.h"

#include <string>

namespace streamlint::reach::testing {

inline SourcePoint at(unsigned line, const std::string &file = "/src/a.cu") {
  return {file, line, 3};
}

/// A builder: functions by short name ("f" has USR "c:@F@f").
struct Graph {
  TranslationUnitSummary tu;

  static std::string usr(const std::string &name) { return "c:@F@" + name; }
  Graph &function(const std::string &name, unsigned kinds = NoApi, unsigned line = 1) {
    tu.functions.push_back({usr(name), name, at(line), kinds});
    return *this;
  }
  Graph &call(const std::string &from, const std::string &to, unsigned line,
              std::vector<unsigned> loopLines = {}) {
    CallEdge edge{usr(from), usr(to), to, at(line), {}};
    for (unsigned loop : loopLines)
      edge.loops.push_back(at(loop));
    tu.edges.push_back(edge);
    return *this;
  }
  Graph &loop(unsigned line, unsigned kinds = NoApi) {
    tu.loops.push_back({at(line), "for", kinds});
    return *this;
  }
  Graph &callback(const std::string &function, unsigned line) {
    tu.callbacks.push_back({usr(function), function, "cudaLaunchHostFunc", at(line)});
    return *this;
  }
  Graph &site(const std::string &check, const std::string &function, unsigned line,
              ReachRoot root, std::vector<unsigned> loopLines = {},
              bool note = false) {
    PendingSite site;
    site.finding.checkId = check;
    site.finding.location = at(line);
    site.finding.end = at(line);
    site.finding.message = "call "; // then where it runs, then messageTail

    site.function = usr(function);
    for (unsigned loop : loopLines)
      site.loops.push_back(at(loop));
    site.root = root;
    site.otherwiseReported = note;
    site.otherwiseMessage = "call, not hot";
    tu.sites.push_back(site);
    return *this;
  }
  ProgramSummary program() const {
    ProgramSummary program;
    program.add(tu);
    program.normalize();
    return program;
  }
};

} // namespace streamlint::reach::testing
