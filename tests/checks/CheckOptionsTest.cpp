// The lifecycle of check options: declared with types and defaults; unknown
// names and bad values are errors naming file, line and key (and the
// command-line flag); --dump-config prints every option and loads back to
// the same settings; --strict reaches every option with a strict value.
#include "TestEnvironment.h"

#include "analyzer/config/ConfigResolver.h"
#include "checks/CheckRegistry.h"

#include <gtest/gtest.h>

namespace streamlint::testing {
namespace {

OptionCatalog catalog() {
  CheckRegistry registry;
  registerAllChecks(registry);
  return registry.optionCatalog();
}

std::string parseError(const std::string &options) {
  OptionCatalog known = catalog();
  auto config = parseConfigFile("/p/.streamlint.yaml",
                                "Checks: '*'\nCheckOptions:\n" + options, known.checks, &known);
  return config ? "" : llvm::toString(config.takeError());
}

TEST(CheckOptions, EveryCheckDeclaresTypedOptionsWithValidDefaults) {
  OptionCatalog known = catalog();
  EXPECT_EQ(known.checks.size(), registeredCheckIds().size());
  EXPECT_GE(known.options.size(), 5u);
  for (const auto &[key, option] : known.options) {
    SCOPED_TRACE(key);
    EXPECT_EQ(optionValueProblem(option, option.defaultValue), "");
    if (!option.strictValue.empty())
      EXPECT_EQ(optionValueProblem(option, option.strictValue), "");
    EXPECT_FALSE(option.description.empty());
  }
}

TEST(CheckOptions, UnknownNamesAreErrorsWithFileLineAndKey) {
  EXPECT_EQ(parseError("  alloc-in-loop.ExtraAlocFunctions: poolAlloc\n"),
            "/p/.streamlint.yaml:3:3: CheckOptions: unknown option "
            "'alloc-in-loop.ExtraAlocFunctions' (alloc-in-loop has ExtraAllocFunctions, "
            "ExtraFreeFunctions)");
  EXPECT_EQ(parseError("  api-in-host-callback.Strict: true\n"),
            "/p/.streamlint.yaml:3:3: CheckOptions: unknown option "
            "'api-in-host-callback.Strict' (api-in-host-callback has no options)");
  EXPECT_EQ(parseError("  device-sync.ExtraSyncFunctions: a\n  nope.Strict: true\n"),
            "/p/.streamlint.yaml:4:3: CheckOptions: option 'nope.Strict': no check named "
            "'nope' (see --list-checks)");
}

TEST(CheckOptions, BadValuesAreErrorsWithFileLineAndKey) {
  EXPECT_EQ(parseError("  pageable-memcpy-async.Strict: maybe\n"),
            "/p/.streamlint.yaml:3:3: CheckOptions: option 'pageable-memcpy-async.Strict': "
            "'maybe' is not a boolean (true or false)");
  EXPECT_EQ(parseError("  default-stream.PerThreadDefaultStream: warn\n"),
            "/p/.streamlint.yaml:3:3: CheckOptions: option "
            "'default-stream.PerThreadDefaultStream': 'warn' is not one of ignore, note");
  EXPECT_EQ(parseError("  device-sync.ExtraSyncFunctions: 'wait all'\n"),
            "/p/.streamlint.yaml:3:3: CheckOptions: option 'device-sync.ExtraSyncFunctions': "
            "'wait all' is not a function name (names are separated by ';')");
  EXPECT_EQ(parseError("  device-sync.ExtraSyncFunctions: 'ns::waitAll; drain'\n"
                       "  pageable-memcpy-async.Strict: 'on'\n"),
            "");
}

TEST(CheckOptions, CommandLineOptionsAreCheckedToo) {
  OptionCatalog known = catalog();
  ConfigOverrides overrides;
  overrides.checkOptions["pageable-memcpy-async.Strikt"] = "true";
  ConfigResolver resolver(overrides, known.checks, known);
  auto config = resolver.configForDirectory("/");
  ASSERT_FALSE(bool(config));
  EXPECT_EQ(llvm::toString(config.takeError()),
            "--check-option 'pageable-memcpy-async.Strikt=true': unknown option "
            "'pageable-memcpy-async.Strikt' (pageable-memcpy-async has Strict)");
}

TEST(CheckOptions, DumpConfigPrintsEveryOptionAndLoadsBack) {
  OptionCatalog known = catalog();
  EffectiveConfig effective;
  effective.checks = "-*,device-sync,alloc-in-loop";
  effective.checkOptions.set("alloc-in-loop.ExtraAllocFunctions", "poolAlloc;pinHost");
  effective.checkOptions.set("pageable-memcpy-async.Strict", "true");
  std::string text;
  llvm::raw_string_ostream out(text);
  dumpConfig(effective, "/p/a.cu", out, known);
  for (const auto &[key, option] : known.options)
    EXPECT_NE(text.find("  " + key + ": "), std::string::npos) << key << " missing:\n" << text;
  auto loaded = parseConfigFile("/p/.streamlint.yaml", text, known.checks, &known);
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError()) << "\n" << text;
  EXPECT_EQ(loaded->checks, effective.checks);
  std::map<std::string, std::string> expected;
  for (const auto &[key, option] : known.options)
    expected[key] = option.defaultValue;
  expected["alloc-in-loop.ExtraAllocFunctions"] = "poolAlloc;pinHost";
  expected["pageable-memcpy-async.Strict"] = "true";
  EXPECT_EQ(loaded->checkOptions, expected);
}

TEST(CheckOptions, StrictReachesEveryStrictnessOption) {
  OptionCatalog known = catalog();
  ConfigOverrides overrides;
  overrides.strict = true;
  overrides.checkOptions["default-stream.PerThreadDefaultStream"] = "ignore"; // explicit wins
  ConfigResolver resolver(overrides, known.checks, known);
  auto config = resolver.configForDirectory("/");
  ASSERT_TRUE(bool(config)) << llvm::toString(config.takeError());
  unsigned strictOptions = 0;
  for (const auto &[key, option] : known.options) {
    if (option.strictValue.empty())
      continue;
    ++strictOptions;
    auto [checkId, name] = llvm::StringRef(key).split('.');
    std::string expected = key == "default-stream.PerThreadDefaultStream" ? "ignore"
                                                                          : option.strictValue;
    EXPECT_EQ(config->checkOptions.get(checkId, name, "<unset>"), expected) << key;
  }
  EXPECT_GE(strictOptions, 2u);
}

} // namespace
} // namespace streamlint::testing
