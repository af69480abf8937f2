// Every registered check has what a check must have: its doc page,
// its test input, and each declared option documented on its page with its
// default (and --strict where it sets the option).
#include "TestEnvironment.h"

#include "analyzer/trace/Evidence.h"
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
    // Run-time evidence: declared, or explicitly none.
    bool declared = evidenceFor(id) != nullptr;
    const std::vector<std::string> &none = checksWithoutEvidence();
    bool explicitlyNone = std::find(none.begin(), none.end(), id) != none.end();
    EXPECT_NE(declared, explicitlyNone)
        << "declare its evidence in analyzer/trace/Evidence.cpp, or list it as having none";
  }
}

TEST(CheckConsistency, EveryEvidenceDeclarationNamesACheck) {
  std::vector<std::string> ids = registeredCheckIds();
  for (const EvidenceDeclaration &declaration : evidenceDeclarations())
    EXPECT_NE(std::find(ids.begin(), ids.end(), declaration.checkId), ids.end())
        << declaration.checkId;
  for (const std::string &id : checksWithoutEvidence())
    EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
}

} // namespace
} // namespace streamlint::testing
