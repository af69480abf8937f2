// What callers pass for a pointer parameter, across TUs: made-up facts in,
// verdicts and findings out; forwarding, hidden callers, registrations,
// the order TUs arrive in, and the JSON round trip.
#include "analyzer/reach/PassedMemory.h"
#include "analyzer/reach/ReachResolution.h"
#include "analyzer/reach/ReachSummary.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace streamlint::reach {
namespace {

SourcePoint at(const std::string &file, unsigned line) { return {file, line, 3}; }

PassedMemory passes(const std::string &callee, int parameter, const std::string &kind,
                    const std::string &caller, unsigned line) {
  PassedMemory memory;
  memory.callee = callee;
  memory.parameter = parameter;
  memory.kind = kind;
  memory.origin = kind == "pageable" ? "malloc" : "cudaMallocHost";
  memory.location = at(caller + ".cu", line - 1);
  memory.allocated = true;
  memory.call = at(caller + ".cu", line);
  memory.callerName = caller;
  return memory;
}

PassedMemory forwards(const std::string &callee, int parameter, const std::string &caller,
                      int callerParameter, unsigned line) {
  PassedMemory memory;
  memory.callee = callee;
  memory.parameter = parameter;
  memory.call = at(caller + ".cu", line);
  memory.callerName = caller;
  memory.forwardsTo = "c:@F@" + caller;
  memory.forwardsParameter = callerParameter;
  return memory;
}

PendingSite copyIn(const std::string &function, int parameter) {
  PendingSite site;
  site.finding.checkId = "pageable-memcpy-async";
  site.finding.severity = Severity::Warning;
  site.finding.location = at("upload.cu", 7);
  site.finding.message = "cudaMemcpyAsync from pageable host memory ({origin})";
  site.function = function;
  site.parameter = parameter;
  site.root = ReachRoot::PageableArgument;
  site.otherwiseMessage = "cannot tell";
  return site;
}

ProgramSummary program(std::vector<TranslationUnitSummary> units) {
  ProgramSummary whole;
  for (TranslationUnitSummary &unit : units)
    whole.add(std::move(unit));
  whole.normalize();
  return whole;
}

TranslationUnitSummary unit(std::vector<PassedMemory> passed,
                            std::vector<PendingSite> sites = {}) {
  TranslationUnitSummary summary;
  summary.passed = std::move(passed);
  summary.sites = std::move(sites);
  return summary;
}

TEST(PassedMemory, EveryCallPageableThroughAForwardingCaller) {
  ProgramSummary whole = program(
      {unit({passes("c:@F@upload", 1, "pageable", "main", 10),
             passes("c:@F@stage", 1, "pageable", "main", 20)}),
       unit({forwards("c:@F@upload", 1, "stage", 1, 5)})});
  ParameterMemory memory = parameterMemory(whole.passed, "c:@F@upload", 1);
  ASSERT_TRUE(memory.known);
  EXPECT_EQ(memory.kind, "pageable");
  EXPECT_EQ(memory.calls.size(), 2u);
}

TEST(PassedMemory, MixedKindsHiddenCallersAndNoCallersAreUnknown) {
  ProgramSummary mixed = program({unit({passes("c:@F@f", 0, "pageable", "a", 3),
                                        passes("c:@F@f", 0, "pinned", "b", 3)})});
  EXPECT_FALSE(parameterMemory(mixed.passed, "c:@F@f", 0).known);

  PassedMemory taken;
  taken.callee = "c:@F@f"; // parameter -1: its address is taken
  ProgramSummary hidden = program({unit({passes("c:@F@f", 0, "pageable", "a", 3)}),
                                   unit({taken})});
  EXPECT_FALSE(parameterMemory(hidden.passed, "c:@F@f", 0).known);

  EXPECT_FALSE(parameterMemory(hidden.passed, "c:@F@nobody", 0).known);
  // Another parameter's calls say nothing about this one.
  ProgramSummary other = program({unit({passes("c:@F@g", 1, "pageable", "a", 3)})});
  EXPECT_FALSE(parameterMemory(other.passed, "c:@F@g", 0).known);
}

TEST(PassedMemory, ForwardingCyclesAndLongChainsAreUnknown) {
  ProgramSummary cycle = program({unit({forwards("c:@F@a", 0, "b", 0, 3),
                                        forwards("c:@F@b", 0, "a", 0, 4)})});
  EXPECT_FALSE(parameterMemory(cycle.passed, "c:@F@a", 0).known);

  std::vector<PassedMemory> chain;
  for (int i = 0; i < 10; ++i)
    chain.push_back(forwards("c:@F@f" + std::to_string(i), 0, "f" + std::to_string(i + 1), 0,
                             static_cast<unsigned>(i + 1)));
  chain.push_back(passes("c:@F@f10", 0, "pageable", "main", 40));
  ProgramSummary deep = program({unit(chain)});
  EXPECT_TRUE(parameterMemory(deep.passed, "c:@F@f5", 0).known);
  EXPECT_FALSE(parameterMemory(deep.passed, "c:@F@f0", 0).known); // deeper than followed
}

TEST(PassedMemory, FindingNamesOriginAndCallersWhateverTheOrder) {
  std::vector<TranslationUnitSummary> units = {
      unit({}, {copyIn("c:@F@upload", 1)}),
      unit({passes("c:@F@upload", 1, "pageable", "main", 10)}),
      unit({passes("c:@F@upload", 1, "pageable", "step", 30)})};
  std::vector<Finding> first = resolveSites(program(units));
  std::reverse(units.begin(), units.end());
  std::vector<Finding> reversed = resolveSites(program(units));
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].message,
            "cudaMemcpyAsync from pageable host memory (malloc, passed by 'main' and 'step')");
  ASSERT_EQ(first[0].related.size(), 4u); // each allocation and each call
  EXPECT_EQ(first[0].related[1].message, "passed here by 'main'");
  ASSERT_EQ(reversed.size(), 1u);
  EXPECT_EQ(reversed[0].message, first[0].message);
  EXPECT_EQ(reversed[0].related.size(), first[0].related.size());
}

TEST(PassedMemory, RegisteredElsewhereOrPinnedIsNotReported) {
  PassedMemory registers;
  registers.callee = "c:@F@pin";
  registers.parameter = 0;
  registers.kind = "registers";
  PassedMemory pinnedArgument = passes("c:@F@pin", 0, "pageable", "main", 10);
  PassedMemory uploaded = passes("c:@F@upload", 1, "pageable", "main", 12);
  uploaded.location = pinnedArgument.location; // the same malloc
  EXPECT_TRUE(resolveSites(program({unit({registers, pinnedArgument, uploaded},
                                         {copyIn("c:@F@upload", 1)})}))
                  .empty());
  EXPECT_TRUE(resolveSites(program({unit({passes("c:@F@upload", 1, "pinned", "main", 3)},
                                         {copyIn("c:@F@upload", 1)})}))
                  .empty());
  // Unknown, and Strict asks for a note.
  PendingSite strict = copyIn("c:@F@upload", 1);
  strict.otherwiseReported = true;
  std::vector<Finding> note = resolveSites(program({unit({}, {strict})}));
  ASSERT_EQ(note.size(), 1u);
  EXPECT_EQ(note[0].severity, Severity::Note);
  EXPECT_EQ(note[0].message, "cannot tell");
}

TEST(PassedMemory, JsonRoundTrip) {
  TranslationUnitSummary summary =
      unit({passes("c:@F@upload", 1, "pageable", "main", 10), forwards("c:@F@u", 0, "s", 2, 4)},
           {copyIn("c:@F@upload", 1)});
  TranslationUnitSummary back;
  std::string error;
  ASSERT_TRUE(fromJson(toJson(summary), "summary.json", back, error)) << error;
  ASSERT_EQ(back.passed.size(), 2u);
  EXPECT_EQ(back.passed[0].kind, "pageable");
  EXPECT_TRUE(back.passed[0].allocated);
  EXPECT_EQ(back.passed[1].forwardsTo, "c:@F@s");
  EXPECT_EQ(back.passed[1].forwardsParameter, 2);
  ASSERT_EQ(back.sites.size(), 1u);
  EXPECT_EQ(back.sites[0].root, ReachRoot::PageableArgument);
  EXPECT_EQ(back.sites[0].parameter, 1);
}

} // namespace
} // namespace streamlint::reach
