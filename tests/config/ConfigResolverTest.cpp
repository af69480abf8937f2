// Discovery (nearest file wins, InheritParentConfig merges), precedence of
// the command line, path filters and --dump-config round trips.
#include "analyzer/config/ConfigResolver.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <fstream>

namespace streamlint {
namespace {

const std::vector<std::string> kChecks = {"default-stream", "device-sync", "pageable-async"};

/// A throwaway directory tree; files are written relative to it.
class ConfigTree : public ::testing::Test {
protected:
  void SetUp() override {
    llvm::SmallString<256> dir;
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("streamlint-config", dir));
    llvm::SmallString<256> real;
    ASSERT_FALSE(llvm::sys::fs::real_path(dir, real));
    root_ = std::string(real);
  }
  void TearDown() override { llvm::sys::fs::remove_directories(root_); }

  std::string path(llvm::StringRef relative) const { return root_ + "/" + relative.str(); }
  void write(llvm::StringRef relative, llvm::StringRef text) {
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(path(relative)));
    std::ofstream(path(relative)) << text.str();
  }
  EffectiveConfig resolve(llvm::StringRef file, ConfigOverrides overrides = {}) {
    ConfigResolver resolver(std::move(overrides), kChecks);
    auto config = resolver.configFor(path(file));
    EXPECT_TRUE(bool(config)) << llvm::toString(config.takeError());
    return config ? *config : EffectiveConfig{};
  }
  std::string resolveError(llvm::StringRef file, ConfigOverrides overrides = {}) {
    ConfigResolver resolver(std::move(overrides), kChecks);
    auto config = resolver.configFor(path(file));
    return config ? "(no error)" : llvm::toString(config.takeError());
  }

  std::string root_;
};

struct DiscoveryCase {
  const char *name;
  std::vector<std::pair<const char *, const char *>> files;  // relative path, text
  const char *analyzed;
  const char *checks;        // expected effective Checks
  const char *option;        // expected device-sync.Max ("" = unset)
  const char *headerFilter;
};

class DiscoveryTest : public ConfigTree,
                      public ::testing::WithParamInterface<DiscoveryCase> {};

TEST_P(DiscoveryTest, EffectiveConfig) {
  for (const auto &[file, text] : GetParam().files)
    write(file, text);
  EffectiveConfig config = resolve(GetParam().analyzed);
  EXPECT_EQ(config.checks, GetParam().checks);
  EXPECT_EQ(config.checkOptions.get("device-sync", "Max", ""), GetParam().option);
  EXPECT_EQ(config.headerFilterRegex, GetParam().headerFilter);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DiscoveryTest,
    ::testing::Values(
        DiscoveryCase{"NoFileMeansDefaults", {}, "src/a.cu", "*", "", ""},
        DiscoveryCase{"SameDirectory", {{"src/.streamlint.yaml", "Checks: device-sync\n"}},
                      "src/a.cu", "device-sync", "", ""},
        DiscoveryCase{"FoundInParent", {{".streamlint.yaml", "Checks: device-sync\n"}},
                      "src/deep/a.cu", "device-sync", "", ""},
        DiscoveryCase{"JsonFound", {{".streamlint.json", R"({"Checks": "-*,device-sync"})"}},
                      "src/a.cu", "-*,device-sync", "", ""},
        DiscoveryCase{"NearestWinsWholly",
                      {{".streamlint.yaml", "Checks: '-*'\nHeaderFilterRegex: 'inc/'\n"
                                            "CheckOptions: {device-sync.Max: 1}\n"},
                       {"src/.streamlint.yaml", "Checks: 'device-sync'\n"}},
                      "src/a.cu", "device-sync", "", ""},
        DiscoveryCase{"SiblingDirectoryUnaffected",
                      {{".streamlint.yaml", "Checks: '-*,default-stream'\n"},
                       {"src/.streamlint.yaml", "Checks: 'device-sync'\n"}},
                      "lib/a.cu", "-*,default-stream", "", ""},
        DiscoveryCase{"InheritMergesParent",
                      {{".streamlint.yaml", "Checks: '-*,default-stream'\nHeaderFilterRegex: 'inc/'\n"
                                            "CheckOptions: {device-sync.Max: 1}\n"},
                       {"src/.streamlint.yaml", "InheritParentConfig: true\nChecks: 'device-sync'\n"}},
                      "src/a.cu", "-*,default-stream,device-sync", "1", "inc/"},
        DiscoveryCase{"InheritChildOptionWins",
                      {{".streamlint.yaml", "CheckOptions: {device-sync.Max: 1}\n"},
                       {"src/.streamlint.yaml", "InheritParentConfig: true\n"
                                                "CheckOptions: {device-sync.Max: 2}\n"}},
                      "src/a.cu", "*", "2", ""},
        DiscoveryCase{"InheritStopsAtNonInheriting",
                      {{".streamlint.yaml", "Checks: '-*'\n"},
                       {"src/.streamlint.yaml", "Checks: 'default-stream'\n"},
                       {"src/gpu/.streamlint.yaml", "InheritParentConfig: true\nChecks: 'device-sync'\n"}},
                      "src/gpu/a.cu", "default-stream,device-sync", "", ""},
        DiscoveryCase{"InheritWithNoParentIsFine",
                      {{".streamlint.yaml", "InheritParentConfig: true\nChecks: 'device-sync'\n"}},
                      "a.cu", "device-sync", "", ""}),
    [](const ::testing::TestParamInfo<DiscoveryCase> &info) { return info.param.name; });

TEST_F(ConfigTree, CommandLineWinsOverFiles) {
  write(".streamlint.yaml", "Checks: '-*,device-sync'\nHeaderFilterRegex: 'inc/'\n"
                            "CheckOptions: {device-sync.Max: 1, default-stream.Policy: legacy}\n");
  ConfigOverrides overrides;
  overrides.checks = "-device-sync,default-stream";
  overrides.checkOptions["device-sync.Max"] = "5";
  overrides.headerFilterRegex = "include/";
  EffectiveConfig config = resolve("a.cu", overrides);
  EXPECT_EQ(config.checks, "-*,device-sync,-device-sync,default-stream");
  EXPECT_EQ(config.checkOptions.get("device-sync", "Max", ""), "5");
  EXPECT_EQ(config.checkOptions.get("default-stream", "Policy", ""), "legacy");
  EXPECT_EQ(config.headerFilterRegex, "include/");
}

TEST_F(ConfigTree, ForcedConfigFileIgnoresDiscovery) {
  write("src/.streamlint.yaml", "Checks: 'default-stream'\n");
  write("ci/strict.yaml", "Checks: 'device-sync'\nExcludePaths: ['../gen/*']\n");
  ConfigOverrides overrides;
  overrides.configFile = path("ci/strict.yaml");
  EffectiveConfig config = resolve("src/a.cu", overrides);
  EXPECT_EQ(config.checks, "device-sync");
  EXPECT_EQ(config.sources, std::vector<std::string>{path("ci/strict.yaml")});
}

TEST_F(ConfigTree, ErrorsNameTheFile) {
  write("both/.streamlint.yaml", "Checks: '*'\n");
  write("both/.streamlint.json", "{}");
  EXPECT_NE(resolveError("both/a.cu").find(path("both") + ": both .streamlint.yaml and "
                                                          ".streamlint.json"),
            std::string::npos);
  write(".streamlint.yaml", "Checks: '*'\nBogus: 1\n");
  write("child/.streamlint.yaml", "InheritParentConfig: true\n");
  EXPECT_NE(resolveError("child/a.cu").find(path(".streamlint.yaml") + ":2:1: Bogus: unknown key"),
            std::string::npos);
  ConfigOverrides missing;
  missing.configFile = path("nope.yaml");
  EXPECT_NE(resolveError("child/a.cu", missing).find(path("nope.yaml") + ": cannot read"),
            std::string::npos);
}

TEST_F(ConfigTree, ExcludePathsAreRelativeToTheirFile) {
  write("proj/.streamlint.yaml", "ExcludePaths: ['third_party/*', '*.gen.cu']\n");
  EffectiveConfig config = resolve("proj/src/a.cu");
  EXPECT_TRUE(config.excludes(path("proj/third_party/x/y.cu")));
  EXPECT_TRUE(config.excludes(path("proj/src/k.gen.cu")));
  EXPECT_FALSE(config.excludes(path("proj/src/a.cu")));
  EXPECT_FALSE(config.excludes(path("other/third_party/y.cu")));
  EXPECT_FALSE(config.excludes(path("proj2/third_party/y.cu")));
}

TEST_F(ConfigTree, HeaderFilterKeepsMainFileAndMatchingHeaders) {
  write(".streamlint.yaml", "HeaderFilterRegex: '/include/'\nExcludePaths: ['include/vendor/*']\n");
  EffectiveConfig config = resolve("src/a.cu");
  std::string main = path("src/a.cu");
  EXPECT_TRUE(config.reportsIn(main, main));
  EXPECT_TRUE(config.reportsIn(path("include/k.cuh"), main));
  EXPECT_FALSE(config.reportsIn(path("src/local.cuh"), main));
  EXPECT_FALSE(config.reportsIn(path("include/vendor/v.cuh"), main));
  EffectiveConfig defaults;  // no HeaderFilterRegex: every header reports
  EXPECT_TRUE(defaults.reportsIn(path("src/local.cuh"), main));
}

TEST_F(ConfigTree, DumpConfigLoadsBackToTheSameSettings) {
  write("p/.streamlint.yaml", "Checks: \"-*,device-sync\"\nHeaderFilterRegex: \"it's/.*\"\n"
                              "ExcludePaths: [gen/*]\nCheckOptions: {device-sync.Max: '3'}\n");
  EffectiveConfig config = resolve("p/a.cu");
  std::string dumped;
  llvm::raw_string_ostream out(dumped);
  dumpConfig(config, path("p/a.cu"), out);
  EXPECT_NE(dumped.find("# from " + path("p/.streamlint.yaml")), std::string::npos) << dumped;
  write("q/.streamlint.yaml", dumped);
  EffectiveConfig reloaded = resolve("q/b.cu");
  EXPECT_EQ(reloaded.checks, config.checks);
  EXPECT_EQ(reloaded.headerFilterRegex, "it's/.*");
  EXPECT_EQ(reloaded.checkOptions.all(), config.checkOptions.all());
  // Issue 22: globs relative to the directory the dump is for (portable
  // across checkouts), so a copy elsewhere excludes relative to itself.
  EXPECT_NE(dumped.find("  - 'gen/*'"), std::string::npos) << dumped;
  EXPECT_TRUE(reloaded.excludes(path("q/gen/x.cu")));
  EXPECT_FALSE(reloaded.excludes(path("p/gen/x.cu")));
}

TEST_F(ConfigTree, DumpConfigKeepsGlobsOutsideItsDirectoryAbsolute) {
  write("p/.streamlint.yaml", "ExcludePaths: [gen/*]\n");
  write("p/sub/.streamlint.yaml", "InheritParentConfig: true\nExcludePaths: [own/*]\n");
  EffectiveConfig config = resolve("p/sub/a.cu");
  std::string dumped;
  llvm::raw_string_ostream out(dumped);
  dumpConfig(config, path("p/sub/a.cu"), out);
  EXPECT_NE(dumped.find("  - '" + path("p/gen/*") + "'"), std::string::npos) << dumped;
  EXPECT_NE(dumped.find("  - 'own/*'"), std::string::npos) << dumped;
}

} // namespace
} // namespace streamlint
