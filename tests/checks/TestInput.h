#pragma once
// Parsing check test inputs: inline `// CHECK:` expectations and file
// directives (RUN-ARGS, CHECK-OPTION, CHECKS, ENV). See tests/README.md.

#include "analyzer/Finding.h"

#include <string>
#include <utility>
#include <vector>

namespace streamlint::testing {

/// One expected finding.
struct Expectation {
  std::string file;          // absolute
  unsigned line = 0;
  std::string checkId;
  Severity severity = Severity::Warning;
  std::string messageSubstring;
  unsigned column = 0;          // `id:COL`; 0: any column
  std::string relatedSubstring; // `[[text]]`: some related note contains it
};

/// A test case: one .cu file, or a directory of .cu files analyzed together.
struct TestInput {
  std::string name;                       // file or directory name
  std::vector<std::string> files;         // absolute, sorted
  std::vector<std::string> runArgs;
  std::vector<std::pair<std::string, std::string>> checkOptions;
  std::string checks;                     // "" = the check named by `name`
  std::string environment;                // "", "stub" or "real"
  std::vector<Expectation> expectations;
  std::vector<std::string> errors;        // malformed directives
};

/// Reads a test file or directory; malformed directives go to `errors`.
TestInput readTestInput(const std::string &path);

/// Parses the expectations and directives of one file's text.
void parseTestText(const std::string &file, const std::string &text,
                   TestInput &input);

/// The longest of `checkIds` that prefixes `name` ("" if none).
std::string checkNamedBy(const std::string &name,
                         const std::vector<std::string> &checkIds);

} // namespace streamlint::testing
