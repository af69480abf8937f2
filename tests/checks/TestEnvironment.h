#pragma once
// The two CUDA environments check tests run in, and running the analyzer on
// test inputs in-process.

#include "TestInput.h"
#include "analyzer/driver/Analyzer.h"

#include <string>
#include <vector>

namespace streamlint::testing {

enum class CudaEnvironment { Stub, Real };
const char *environmentName(CudaEnvironment environment);

/// True if the real toolkit's headers are installed.
bool realToolkitAvailable();

/// The testdata directory (compiled in).
std::string testdataDirectory();

/// Compile entries (clang-style commands) for `files` in `environment`.
std::vector<CompileEntry> entriesFor(const std::vector<std::string> &files,
                                     const std::vector<std::string> &runArgs,
                                     CudaEnvironment environment);

/// Runs the analyzer in-process with `checks` and `options`.
AnalysisResult analyzeForTest(const std::vector<CompileEntry> &entries,
                              const std::string &checks,
                              const CheckOptions &options);

/// Every registered check id.
std::vector<std::string> registeredCheckIds();

} // namespace streamlint::testing
