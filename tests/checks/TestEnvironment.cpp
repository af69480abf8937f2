#include "TestEnvironment.h"

#include "checks/CheckRegistry.h"

#include <filesystem>

namespace streamlint::testing {

const char *environmentName(CudaEnvironment environment) {
  return environment == CudaEnvironment::Stub ? "stub" : "real";
}

bool realToolkitAvailable() {
  std::string cuda = std::getenv("CUDA_PATH") ? std::getenv("CUDA_PATH")
                                              : "/usr/local/cuda";
  return std::filesystem::exists(cuda + "/include/cuda_runtime.h");
}

std::string testdataDirectory() { return STREAMLINT_TESTDATA_DIR; }

std::vector<CompileEntry> entriesFor(const std::vector<std::string> &files,
                                     const std::vector<std::string> &runArgs,
                                     CudaEnvironment environment) {
  std::vector<CompileEntry> entries;
  for (const std::string &file : files) {
    CompileEntry entry;
    entry.directory = std::filesystem::path(file).parent_path().string();
    entry.file = file;
    entry.arguments = {"clang++", "-x", "cuda", "-std=c++17"};
    if (environment == CudaEnvironment::Stub) {
      for (const char *arg : {"-nocudainc", "-nocudalib", "-isystem"})
        entry.arguments.push_back(arg);
      entry.arguments.push_back(testdataDirectory() + "/stub");
    }
    entry.arguments.insert(entry.arguments.end(), runArgs.begin(), runArgs.end());
    entry.arguments.push_back("-c");
    entry.arguments.push_back(file);
    entries.push_back(std::move(entry));
  }
  return entries;
}

static const CheckRegistry &registry() {
  static const CheckRegistry instance = [] {
    CheckRegistry registry;
    registerAllChecks(registry);
    return registry;
  }();
  return instance;
}

AnalysisResult analyzeForTest(const std::vector<CompileEntry> &entries,
                              const std::string &checks,
                              const CheckOptions &options) {
  AnalyzerOptions analyzer;
  analyzer.checks = checks;
  analyzer.checkOptions = options;
  analyzer.jobs = 1;
  return analyzeEntries(entries, analyzer, registry());
}

std::vector<std::string> registeredCheckIds() {
  std::vector<std::string> ids;
  for (const CheckDescriptor &check : registry().checks())
    ids.push_back(check.rule.id);
  return ids;
}

} // namespace streamlint::testing
