// No silent green run: selections that enable nothing or name no check.
#include "analyzer/driver/CheckSelectionProblems.h"

#include <gtest/gtest.h>

using namespace streamlint;

namespace {

CheckRegistry registry() {
  CheckRegistry result;
  registerAllChecks(result);
  return result;
}

TEST(CheckSelectionProblems, CommandLine) {
  CheckRegistry checks = registry();
  EXPECT_EQ(commandLineChecksProblem("-*,device-sync", checks, false), "");
  EXPECT_EQ(commandLineChecksProblem("*", checks, false), "");
  std::string empty = commandLineChecksProblem("", checks, false);
  EXPECT_NE(empty.find("--checks is empty"), std::string::npos) << empty;
  EXPECT_EQ(commandLineChecksProblem("", checks, /*allowNoChecks=*/true), "");
  std::string typo = commandLineChecksProblem("-*,device-snyc", checks, true);
  EXPECT_NE(typo.find("'device-snyc' matches no check"), std::string::npos) << typo;
  std::string negativeTypo = commandLineChecksProblem("*,-devise-*", checks, false);
  EXPECT_NE(negativeTypo.find("'-devise-*'"), std::string::npos) << negativeTypo;
}

TEST(CheckSelectionProblems, PlanNamesTheEffectiveSelectionAndItsSources) {
  CheckRegistry checks = registry();
  AnalysisPlan plan;
  PlannedUnit unit;
  unit.entry.file = "/p/a.cu";
  unit.config.checks = "*,-*";
  unit.config.sources = {"/p/.streamlint.yaml"};
  plan.units.push_back(unit);
  std::string problem = planChecksProblem(plan, checks);
  EXPECT_NE(problem.find("no checks enabled: Checks '*,-*' (from /p/.streamlint.yaml)"),
            std::string::npos)
      << problem;
  // A context unit does not count; one reported unit with a check does.
  PlannedUnit context = unit;
  context.config.checks = "*";
  context.reported = false;
  plan.units.push_back(context);
  EXPECT_NE(planChecksProblem(plan, checks), "");
  PlannedUnit other = unit;
  other.config.checks = "device-sync";
  plan.units.push_back(other);
  EXPECT_EQ(planChecksProblem(plan, checks), "");
  EXPECT_EQ(planChecksProblem(AnalysisPlan{}, checks), "");
}

} // namespace
