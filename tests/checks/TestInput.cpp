#include "TestInput.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

namespace streamlint::testing {
namespace fs = std::filesystem;

namespace {

std::string trim(const std::string &text) {
  size_t begin = text.find_first_not_of(" \t");
  size_t end = text.find_last_not_of(" \t\r");
  return begin == std::string::npos ? "" : text.substr(begin, end - begin + 1);
}

// Splits "a, b(note):7 {{x, y}} [[p, q]]" at commas outside {{...}} and [[...]].
std::vector<std::string> splitItems(const std::string &list) {
  std::vector<std::string> items;
  std::string current;
  bool inMessage = false;
  for (size_t i = 0; i < list.size(); ++i) {
    if (list.compare(i, 2, "{{") == 0 || list.compare(i, 2, "[[") == 0)
      inMessage = true;
    if (list.compare(i, 2, "}}") == 0 || list.compare(i, 2, "]]") == 0)
      inMessage = false;
    if (list[i] == ',' && !inMessage) {
      items.push_back(trim(current));
      current.clear();
      continue;
    }
    current += list[i];
  }
  if (!trim(current).empty())
    items.push_back(trim(current));
  return items;
}

void parseExpectationItem(const std::string &file, unsigned line,
                          const std::string &item, TestInput &input) {
  static const std::regex itemPattern(
      R"(^([A-Za-z0-9_-]+)(\((note|warning|error)\))?(:([0-9]+))?\s*(\{\{(.*?)\}\})?\s*(\[\[(.*)\]\])?$)");
  std::smatch match;
  if (!std::regex_match(item, match, itemPattern)) {
    input.errors.push_back(file + ":" + std::to_string(line) +
                           ": malformed expectation '" + item + "'");
    return;
  }
  Expectation expectation;
  expectation.file = file;
  expectation.line = line;
  expectation.checkId = match[1];
  std::string severity = match[3];
  expectation.severity = severity == "note"    ? Severity::Note
                         : severity == "error" ? Severity::Error
                                               : Severity::Warning;
  if (match[5].matched)
    expectation.column = static_cast<unsigned>(std::stoul(match[5]));
  expectation.messageSubstring = match[7];
  expectation.relatedSubstring = match[9];
  input.expectations.push_back(expectation);
}

} // namespace

void parseTestText(const std::string &file, const std::string &text,
                   TestInput &input) {
  static const std::regex checkPattern(R"(//\s*CHECK(@([+-][0-9]+))?:\s*(.*)$)");
  static const std::regex directivePattern(
      R"(//\s*(RUN-ARGS|CHECK-OPTION|CHECKS|ENV):\s*(.*)$)");
  std::istringstream lines(text);
  std::string lineText;
  unsigned lineNumber = 0;
  while (std::getline(lines, lineText)) {
    ++lineNumber;
    std::smatch match;
    if (std::regex_search(lineText, match, directivePattern)) {
      std::string kind = match[1], value = trim(match[2]);
      if (kind == "RUN-ARGS") {
        std::istringstream words(value);
        for (std::string word; words >> word;)
          input.runArgs.push_back(word);
      } else if (kind == "CHECK-OPTION") {
        size_t equals = value.find('=');
        if (equals == std::string::npos)
          input.errors.push_back(file + ":" + std::to_string(lineNumber) +
                                 ": CHECK-OPTION needs <id>.<Name>=<value>");
        else
          input.checkOptions.emplace_back(trim(value.substr(0, equals)),
                                          trim(value.substr(equals + 1)));
      } else if (kind == "CHECKS") {
        input.checks = value;
      } else if (value == "stub" || value == "real") {
        input.environment = value;
      } else {
        input.errors.push_back(file + ":" + std::to_string(lineNumber) +
                               ": ENV must be 'stub' or 'real'");
      }
      continue;
    }
    if (!std::regex_search(lineText, match, checkPattern))
      continue;
    int offset = match[2].matched ? std::stoi(match[2]) : 0;
    unsigned target = static_cast<unsigned>(static_cast<int>(lineNumber) + offset);
    for (const std::string &item : splitItems(match[3]))
      parseExpectationItem(file, target, item, input);
  }
}

TestInput readTestInput(const std::string &path) {
  TestInput input;
  fs::path root = fs::absolute(path);
  input.name = root.filename().string();
  if (fs::is_directory(root)) {
    for (const auto &entry : fs::directory_iterator(root)) {
      std::string extension = entry.path().extension().string();
      if (extension == ".cu" || extension == ".cpp" || extension == ".cc")
        input.files.push_back(entry.path().string());
    }
    std::sort(input.files.begin(), input.files.end());
  } else {
    input.files.push_back(root.string());
  }
  // Expectations may also sit in headers of a multi-TU directory.
  std::vector<std::string> scanned = input.files;
  if (fs::is_directory(root))
    for (const auto &entry : fs::directory_iterator(root))
      if (entry.path().extension() == ".h" || entry.path().extension() == ".cuh")
        scanned.push_back(entry.path().string());
  for (const std::string &file : scanned) {
    std::ifstream stream(file);
    std::stringstream text;
    text << stream.rdbuf();
    parseTestText(file, text.str(), input);
  }
  return input;
}

std::string checkNamedBy(const std::string &name,
                         const std::vector<std::string> &checkIds) {
  std::string best;
  for (const std::string &id : checkIds)
    if (name.rfind(id, 0) == 0 && id.size() > best.size())
      best = id;
  return best;
}

} // namespace streamlint::testing
