// Parsing one config file: every accepted form and every error, each error
// naming the file, line, column and key.
#include "analyzer/config/ConfigFile.h"

#include <gtest/gtest.h>

namespace streamlint {
namespace {

const std::vector<std::string> kChecks = {"default-stream", "device-sync", "pageable-async"};

TEST(ConfigFileTest, ReadsEveryKey) {
  auto config = parseConfigFile("/p/.streamlint.yaml", R"(
Checks: '-*,device-*'
CheckOptions:
  device-sync.ExtraSyncFunctions: 'mySync;otherSync'
  default-stream.Policy: per-thread
HeaderFilterRegex: 'src/.*\.cuh'
ExcludePaths: [third_party/*, 'gen/**']
InheritParentConfig: true
)", kChecks);
  ASSERT_TRUE(bool(config)) << llvm::toString(config.takeError());
  EXPECT_EQ(config->path, "/p/.streamlint.yaml");
  EXPECT_EQ(config->checks, "-*,device-*");
  EXPECT_EQ(config->checkOptions.at("device-sync.ExtraSyncFunctions"), "mySync;otherSync");
  EXPECT_EQ(config->checkOptions.at("default-stream.Policy"), "per-thread");
  EXPECT_EQ(config->headerFilterRegex, "src/.*\\.cuh");
  EXPECT_EQ(config->excludePaths, (std::vector<std::string>{"third_party/*", "gen/**"}));
  EXPECT_TRUE(config->inheritParentConfig);
}

TEST(ConfigFileTest, ReadsJson) {
  auto config = parseConfigFile("/p/.streamlint.json",
                                R"({"Checks": "device-sync", "CheckOptions": {"device-sync.Max": "3"},
                                    "ExcludePaths": ["a/*"]})",
                                kChecks);
  ASSERT_TRUE(bool(config)) << llvm::toString(config.takeError());
  EXPECT_EQ(config->checks, "device-sync");
  EXPECT_EQ(config->checkOptions.at("device-sync.Max"), "3");
  EXPECT_EQ(config->excludePaths.size(), 1u);
  EXPECT_FALSE(config->headerFilterRegex.has_value());
}

TEST(ConfigFileTest, EmptyFileSetsNothing) {
  for (const char *text : {"", "# only a comment\n", "---\n...\n"}) {
    auto config = parseConfigFile("/p/.streamlint.yaml", text, kChecks);
    ASSERT_TRUE(bool(config)) << text << ": " << llvm::toString(config.takeError());
    EXPECT_FALSE(config->checks.has_value());
    EXPECT_TRUE(config->checkOptions.empty());
  }
}

TEST(ConfigFileTest, WithoutKnownChecksAnyIdIsAccepted) {
  auto config = parseConfigFile("/p/.streamlint.yaml",
                                "Checks: 'future-check'\nCheckOptions: {future-check.X: 1}\n", {});
  ASSERT_TRUE(bool(config)) << llvm::toString(config.takeError());
}

// llvm's YAML parser recurses per flow nesting level and per empty entry in
// a row: such text is refused before parsing, not a stack overflow (the
// config_file fuzzer's 17.9 KB crash, whose input is in its seed corpus).
TEST(ConfigFileTest, TextTooDeepForTheYamlReaderIsAnErrorNotACrash) {
  std::string commas = "Checks: 'device-sync'\nExcludePaths: [\"a\"" +
                       std::string(400000, ',') + "]\n";
  std::string nested = "Checks: 'device-sync'\nExcludePaths: " + std::string(100000, '[') +
                       std::string(100000, ']') + "\n";
  std::string mappings = "Checks: 'device-sync'\nCheckOptions: ";
  for (int i = 0; i < 100000; ++i)
    mappings += "{a: ";
  mappings += "1" + std::string(100000, '}') + "\n";
  for (const std::string *text : {&commas, &nested, &mappings}) {
    auto config = parseConfigFile("/p/.streamlint.yaml", *text, kChecks);
    ASSERT_FALSE(bool(config));
    std::string message = llvm::toString(config.takeError());
    EXPECT_EQ(message.rfind("/p/.streamlint.yaml:2:", 0), 0u) << message;
    EXPECT_NE(message.find("too deep for the YAML reader"), std::string::npos) << message;
  }
  // Commas and brackets inside quotes and comments do not count.
  auto quoted = parseConfigFile("/p/.streamlint.yaml",
                                "Checks: 'device-sync' # " + std::string(1000, '{') +
                                    "\nExcludePaths: [\"a" + std::string(1000, ',') + "\", 'b" +
                                    std::string(1000, '[') + "x]']\n",
                                kChecks);
  ASSERT_TRUE(bool(quoted)) << llvm::toString(quoted.takeError());
  EXPECT_EQ(quoted->excludePaths.size(), 2u);
}

struct ErrorCase {
  const char *name;
  const char *text;
  const char *expected;  // substring of the message, after the path
};

void PrintTo(const ErrorCase &c, std::ostream *out) { *out << c.name; }

class ConfigFileErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ConfigFileErrorTest, NamesFileLineAndKey) {
  auto config = parseConfigFile("/p/.streamlint.yaml", GetParam().text, kChecks);
  ASSERT_FALSE(bool(config)) << GetParam().name << " was accepted";
  std::string message = llvm::toString(config.takeError());
  EXPECT_EQ(message.rfind("/p/.streamlint.yaml:", 0), 0u) << message;
  EXPECT_NE(message.find(GetParam().expected), std::string::npos)
      << "expected '" << GetParam().expected << "' in: " << message;
}

INSTANTIATE_TEST_SUITE_P(
    Errors, ConfigFileErrorTest,
    ::testing::Values(
        ErrorCase{"UnknownKey", "Checks: '*'\nChecsk: '*'\n", ":2:1: Checsk: unknown key"},
        ErrorCase{"DuplicateKey", "Checks: '*'\nChecks: '-*'\n", ":2:1: Checks: given twice"},
        ErrorCase{"NotAMapping", "- Checks\n", ":1:1: expected a mapping"},
        ErrorCase{"ChecksNotString", "Checks: [a, b]\n", ":1:10: Checks: expected a string"},
        ErrorCase{"ChecksTypo", "Checks: '-*,devise-sync'\n", ":1:9: Checks: 'devise-sync' matches no check"},
        ErrorCase{"ChecksBadGlob", "Checks: 'device-[sync'\n", ":1:9: Checks: invalid glob"},
        ErrorCase{"OptionsNotMapping", "CheckOptions: [a]\n", ":1:16: CheckOptions: expected a mapping"},
        ErrorCase{"OptionWithoutId", "CheckOptions:\n  Max: 3\n", ":2:3: CheckOptions: option 'Max'"},
        ErrorCase{"OptionUnknownCheck", "CheckOptions:\n  device-synk.Max: 3\n",
                  ":2:3: CheckOptions: option 'device-synk.Max': no check named 'device-synk'"},
        ErrorCase{"OptionNotScalar", "CheckOptions:\n  device-sync.Max: [3]\n",
                  ":2:21: CheckOptions: option 'device-sync.Max': expected a scalar"},
        ErrorCase{"OptionTwice", "CheckOptions:\n  device-sync.Max: 3\n  device-sync.Max: 4\n",
                  ":3:3: CheckOptions: option 'device-sync.Max' given twice"},
        ErrorCase{"BadRegex", "HeaderFilterRegex: 'src/(.*'\n", ":1:20: HeaderFilterRegex: invalid regular expression"},
        ErrorCase{"RegexNotString", "HeaderFilterRegex: {a: b}\n", ":1:21: HeaderFilterRegex: expected"},
        ErrorCase{"ExcludeNotList", "ExcludePaths: 'a/*'\n", ":1:15: ExcludePaths: expected a list"},
        ErrorCase{"ExcludeEmpty", "ExcludePaths: ['']\n", ":1:16: ExcludePaths: expected a non-empty glob"},
        ErrorCase{"ExcludeBadGlob", "ExcludePaths: ['a/[b']\n", ":1:16: ExcludePaths: invalid glob"},
        ErrorCase{"InheritNotBool", "InheritParentConfig: yes please\n", ":1:22: InheritParentConfig: expected true or false"},
        ErrorCase{"SyntaxError", "Checks: '*\n", ":1:"},
        ErrorCase{"UnclosedFlowMapping", "Checks: '*'\nCheckOptions: {device-sync.Max: 3\n", ":2:34: Unexpected token"}),
    [](const ::testing::TestParamInfo<ErrorCase> &info) { return info.param.name; });

TEST(ConfigFileTest, UnreadableFileIsAnErrorNamingIt) {
  auto config = loadConfigFile("/nonexistent/.streamlint.yaml", kChecks);
  ASSERT_FALSE(bool(config));
  std::string message = llvm::toString(config.takeError());
  EXPECT_NE(message.find("/nonexistent/.streamlint.yaml: cannot read config file"),
            std::string::npos) << message;
}

} // namespace
} // namespace streamlint
