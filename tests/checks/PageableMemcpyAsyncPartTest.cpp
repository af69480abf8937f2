// pageable-memcpy-async's whole-program part: what callers pass for a
// pointer parameter, across TUs: made-up facts in, verdicts and findings
// out; forwarding, hidden callers, registrations, the order TUs arrive in,
// and the JSON round trip through the TU summary.
#include "checks/PageableMemcpyAsyncPart.h"
#include "analyzer/reach/ReachResolution.h"
#include "analyzer/reach/ReachSummary.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace streamlint {
using namespace reach;
namespace {

const char *const kPart = "pageable-memcpy-async";

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

PageableCopy copyIn(const std::string &function, int parameter) {
  PageableCopy site;
  site.finding.checkId = "pageable-memcpy-async";
  site.finding.severity = Severity::Warning;
  site.finding.location = at("upload.cu", 7);
  site.finding.message = "cudaMemcpyAsync from pageable host memory (";
  site.messageTail = ")";
  site.function = function;
  site.parameter = parameter;
  site.undecidedNote = "cannot tell";
  return site;
}

/// The part's facts of several TUs merged, as the part merges them.
struct Program {
  PageableProgram facts;
  std::vector<TranslationUnitSummary> units;
};

Program program(std::vector<TranslationUnitSummary> units) {
  Program whole;
  for (const TranslationUnitSummary &unit : units)
    whole.facts.add(static_cast<const PageableMemoryFacts &>(*unit.parts.at(kPart)));
  whole.facts.normalize();
  whole.units = std::move(units);
  return whole;
}

/// The findings of the whole-program pass over `whole`'s TUs.
std::vector<Finding> resolveSites(Program whole) {
  registerPart(pageableMemcpyAsyncPart());
  ProgramSummary summary;
  for (TranslationUnitSummary &unit : whole.units)
    summary.add(std::move(unit));
  return reach::resolveSites(std::move(summary));
}

TranslationUnitSummary unit(std::vector<PassedMemory> passed,
                            std::vector<PageableCopy> copies = {}) {
  auto facts = std::make_shared<PageableMemoryFacts>();
  facts->passed = std::move(passed);
  facts->copies = std::move(copies);
  TranslationUnitSummary summary;
  summary.parts[kPart] = facts;
  return summary;
}

const PageableMemoryFacts &factsOf(const TranslationUnitSummary &summary) {
  return static_cast<const PageableMemoryFacts &>(*summary.parts.at(kPart));
}

TEST(PassedMemory, EveryCallPageableThroughAForwardingCaller) {
  Program whole = program(
      {unit({passes("c:@F@upload", 1, "pageable", "main", 10),
             passes("c:@F@stage", 1, "pageable", "main", 20)}),
       unit({forwards("c:@F@upload", 1, "stage", 1, 5)})});
  ParameterMemory memory = parameterMemory(whole.facts.passed, "c:@F@upload", 1);
  ASSERT_TRUE(memory.known);
  EXPECT_EQ(memory.kind, "pageable");
  EXPECT_EQ(memory.calls.size(), 2u);
}

TEST(PassedMemory, MixedKindsHiddenCallersAndNoCallersAreUnknown) {
  Program mixed = program({unit({passes("c:@F@f", 0, "pageable", "a", 3),
                                        passes("c:@F@f", 0, "pinned", "b", 3)})});
  EXPECT_FALSE(parameterMemory(mixed.facts.passed, "c:@F@f", 0).known);

  PassedMemory taken;
  taken.callee = "c:@F@f"; // parameter -1: its address is taken
  Program hidden = program({unit({passes("c:@F@f", 0, "pageable", "a", 3)}),
                                   unit({taken})});
  EXPECT_FALSE(parameterMemory(hidden.facts.passed, "c:@F@f", 0).known);

  EXPECT_FALSE(parameterMemory(hidden.facts.passed, "c:@F@nobody", 0).known);
  // Another parameter's calls say nothing about this one.
  Program other = program({unit({passes("c:@F@g", 1, "pageable", "a", 3)})});
  EXPECT_FALSE(parameterMemory(other.facts.passed, "c:@F@g", 0).known);
}

TEST(PassedMemory, ForwardingCyclesAndLongChainsAreUnknown) {
  Program cycle = program({unit({forwards("c:@F@a", 0, "b", 0, 3),
                                        forwards("c:@F@b", 0, "a", 0, 4)})});
  EXPECT_FALSE(parameterMemory(cycle.facts.passed, "c:@F@a", 0).known);

  std::vector<PassedMemory> chain;
  for (int i = 0; i < 10; ++i)
    chain.push_back(forwards("c:@F@f" + std::to_string(i), 0, "f" + std::to_string(i + 1), 0,
                             static_cast<unsigned>(i + 1)));
  chain.push_back(passes("c:@F@f10", 0, "pageable", "main", 40));
  Program deep = program({unit(chain)});
  EXPECT_TRUE(parameterMemory(deep.facts.passed, "c:@F@f5", 0).known);
  EXPECT_FALSE(parameterMemory(deep.facts.passed, "c:@F@f0", 0).known); // deeper than followed
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
  PageableCopy strict = copyIn("c:@F@upload", 1);
  strict.noteUndecided = true;
  std::vector<Finding> note = resolveSites(program({unit({}, {strict})}));
  ASSERT_EQ(note.size(), 1u);
  EXPECT_EQ(note[0].severity, Severity::Note);
  EXPECT_EQ(note[0].message, "cannot tell");
}

TEST(PassedMemory, JsonRoundTrip) {
  TranslationUnitSummary summary =
      unit({passes("c:@F@upload", 1, "pageable", "main", 10), forwards("c:@F@u", 0, "s", 2, 4)},
           {copyIn("c:@F@upload", 1)});
  registerPart(pageableMemcpyAsyncPart());
  TranslationUnitSummary parsed;
  std::string error;
  ASSERT_TRUE(fromJson(toJson(summary), "summary.json", parsed, error)) << error;
  const PageableMemoryFacts &back = factsOf(parsed);
  ASSERT_EQ(back.passed.size(), 2u);
  EXPECT_EQ(back.passed[0].kind, "pageable");
  EXPECT_TRUE(back.passed[0].allocated);
  EXPECT_EQ(back.passed[1].forwardsTo, "c:@F@s");
  EXPECT_EQ(back.passed[1].forwardsParameter, 2);
  ASSERT_EQ(back.copies.size(), 1u);
  EXPECT_GE(back.copies[0].parameter, 0); // decided by the callers
  EXPECT_EQ(back.copies[0].parameter, 1);
}

// pageable-memcpy-async's wrappers: what a function returns, a forwarding
// wrapper, and a copy waiting on them, resolved across TUs.
TEST(ReachSummaryJson, ReturnedMemoryRoundTripsAndResolves) {
  registerPart(pageableMemcpyAsyncPart());
  auto wrapperFacts = std::make_shared<PageableMemoryFacts>();
  std::vector<ReturnedMemory> &returns = wrapperFacts->returns;
  TranslationUnitSummary wrappers;
  wrappers.mainFile = "/src/alloc.cu";
  wrappers.parts[kPart] = wrapperFacts;
  returns.push_back({"c:@F@allocHost", "allocHost", "pageable", "malloc",
                              SourcePoint{"/src/a.cu", 3, 3}, ""});
  returns.push_back({"c:@F@allocFloats", "allocFloats", "", "", {}, "c:@F@allocHost"});
  returns.push_back({"c:@F@allocPinned", "allocPinned", "pinned", "cudaMallocHost",
                              SourcePoint{"/src/a.cu", 9, 3}, ""});
  returns.push_back({"c:@F@loopA", "loopA", "", "", {}, "c:@F@loopB"});
  returns.push_back({"c:@F@loopB", "loopB", "", "", {}, "c:@F@loopA"});
  std::string text = toJson(wrappers);
  TranslationUnitSummary parsed;
  std::string error;
  ASSERT_TRUE(fromJson(text, "alloc.json", parsed, error)) << error;
  EXPECT_EQ(toJson(parsed), text);

  auto copyFacts = std::make_shared<PageableMemoryFacts>();
  TranslationUnitSummary copies;
  copies.mainFile = "/src/main.cu";
  copies.parts[kPart] = copyFacts;
  for (const char *callee : {"c:@F@allocFloats", "c:@F@allocPinned", "c:@F@loopA",
                             "c:@F@unknown"}) {
    PageableCopy site; // parameter -1: what `callee` returns decides
    site.finding.checkId = "pageable-memcpy-async";
    site.finding.message = "copy from pageable host memory (";
    site.messageTail = ")";
    site.finding.location = {"/src/main.cu", static_cast<unsigned>(copyFacts->copies.size() + 1),
                             1};
    site.function = callee;
    copyFacts->copies.push_back(site);
  }
  PageableProgram merged;
  merged.add(factsOf(parsed));
  merged.add(*copyFacts);
  ASSERT_NE(returnedMemory(merged, "c:@F@allocFloats"), nullptr);
  EXPECT_EQ(returnedMemory(merged, "c:@F@allocFloats")->name, "allocHost");
  EXPECT_EQ(returnedMemory(merged, "c:@F@loopA"), nullptr); // a cycle ends
  ProgramSummary program;
  program.add(std::move(parsed));
  program.add(std::move(copies));
  std::vector<Finding> findings = reach::resolveSites(std::move(program));
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].message,
            "copy from pageable host memory (malloc, returned by 'allocHost')");
  ASSERT_EQ(findings[0].related.size(), 1u);
  EXPECT_EQ(findings[0].related[0].location.line, 3u);
}

} // namespace
} // namespace streamlint
