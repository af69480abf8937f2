// Every registered check has what a check must have: its doc page,
// its test input, each declared option documented on its page with its
// default (and --strict where it sets the option), and its run-time
// evidence either declared (checks/CheckEvidence.cpp) or stated as none on
// its page.
#include "TestEnvironment.h"

#include "checks/CheckEvidence.h"
#include "checks/CheckRegistry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace streamlint::testing {
namespace {

std::string projectFile(const std::string &relative) {
  std::ifstream in(testdataDirectory() + "/../" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The page states that the probe gives no evidence for the check: its
/// "## Run-time evidence" section begins with "None".
bool pageStatesNoEvidence(const std::string &page) {
  std::size_t at = page.find("\n## Run-time evidence\n");
  if (at == std::string::npos)
    return false;
  at = page.find_first_not_of("\n", at + std::string("\n## Run-time evidence\n").size());
  return at != std::string::npos && page.compare(at, 4, "None") == 0;
}

TEST(CheckConsistency, EveryCheckHasDocsTestdataAndDocumentedOptions) {
  CheckRegistry registry;
  registerAllChecks(registry);
  ASSERT_FALSE(registry.checks().empty());
  for (const CheckDescriptor &check : registry.checks()) {
    const std::string &id = check.rule.id;
    SCOPED_TRACE(id);
    EXPECT_EQ(check.rule.helpUri, "docs/checks/" + id + ".md");
    std::string page = projectFile("docs/checks/" + id + ".md");
    EXPECT_FALSE(page.empty()) << "docs/checks/" << id << ".md is missing";
    EXPECT_TRUE(std::filesystem::exists(testdataDirectory() + "/checks/" + id + ".cu"))
        << "testdata/checks/" << id << ".cu is missing";
    for (const OptionSpec &option : check.options) {
      std::string key = id + "." + option.name;
      EXPECT_NE(page.find("`" + key + "`"), std::string::npos)
          << key << " is not documented on its page";
      if (!option.defaultValue.empty())
        EXPECT_NE(page.find("`" + option.defaultValue + "`"), std::string::npos)
            << key << ": its default '" << option.defaultValue << "' is not on the page";
      if (!option.strictValue.empty())
        EXPECT_NE(page.find("--strict"), std::string::npos)
            << key << ": the page does not say that --strict sets it";
    }
    // Run-time evidence: declared, or stated as none on the page.
    bool declared = evidenceFor(id) != nullptr;
    EXPECT_NE(declared, pageStatesNoEvidence(page))
        << "declare its evidence in checks/CheckEvidence.cpp, or begin the page's "
           "'## Run-time evidence' section with 'None'";
  }
}

TEST(CheckConsistency, EveryEvidenceDeclarationNamesACheck) {
  std::vector<std::string> ids = registeredCheckIds();
  for (const EvidenceDeclaration &declaration : evidenceDeclarations())
    EXPECT_NE(std::find(ids.begin(), ids.end(), declaration.checkId), ids.end())
        << declaration.checkId;
}

TEST(CheckConsistency, EveryClaimNamesAnotherRegisteredCheck) {
  std::vector<std::string> ids = registeredCheckIds();
  CheckRegistry registry;
  registerAllChecks(registry);
  for (const CheckDescriptor &check : registry.checks())
    for (const SiteClaim &claim : check.claims) {
      EXPECT_NE(claim.from, check.rule.id);
      EXPECT_NE(std::find(ids.begin(), ids.end(), claim.from), ids.end()) << claim.from;
      EXPECT_FALSE(claim.sites.empty()) << check.rule.id;
    }
}

// A site claimed by one check goes to another only through the registry:
// with its claimer disabled, the sites are handed back.
TEST(CheckConsistency, ADisabledClaimerHandsItsSitesBack) {
  CheckRegistry registry;
  registerAllChecks(registry);
  const std::pair<std::string, std::string> pyTorchSites = {"default-stream",
                                                            "pytorch-extension"};
  EXPECT_EQ(claimedSites(registry, CheckSelection("*")).count(pyTorchSites), 1u);
  EXPECT_EQ(claimedSites(registry, CheckSelection("-*,library-default-stream")).count(pyTorchSites),
            1u);
  EXPECT_EQ(claimedSites(registry, CheckSelection("-*,default-stream")).count(pyTorchSites), 0u);
  EXPECT_TRUE(claimedSites(registry, CheckSelection("*,-library-default-stream")).empty());
}

TEST(CheckConsistency, NoEvidenceIsReadFromTheRunTimeEvidenceSection) {
  EXPECT_TRUE(pageStatesNoEvidence("# x\n\n## Run-time evidence\n\nNone yet.\n"));
  EXPECT_TRUE(pageStatesNoEvidence("# x\n## Run-time evidence\nNone.\n## Limitations\n"));
  EXPECT_FALSE(pageStatesNoEvidence("# x\n## Run-time evidence\n\nThe probe counts.\n"));
  EXPECT_FALSE(pageStatesNoEvidence("# x\n## Limitations\n\nNone.\n"));
}

} // namespace
} // namespace streamlint::testing
