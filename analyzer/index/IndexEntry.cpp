#include "analyzer/index/IndexEntry.h"
#include "analyzer/reach/SummaryJson.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"

#include <nlohmann/json.hpp>

namespace streamlint::index {

using nlohmann::json;
using reach::findingFrom;
using reach::findingJson;

std::string sha256Hex(llvm::StringRef bytes) {
  auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(bytes));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::string fileSha256(const std::string &path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return "";
  return sha256Hex((*buffer)->getBuffer());
}

namespace {

json findingsJson(const std::vector<Finding> &findings) {
  json list = json::array();
  for (const Finding &f : findings)
    list.push_back(findingJson(f));
  return list;
}

} // namespace

std::string findingsToJson(const std::vector<Finding> &findings) {
  return findingsJson(findings).dump();
}

bool findingsFromJson(const std::string &text, std::vector<Finding> &findings,
                      std::string &error) {
  try {
    std::vector<Finding> parsed;
    for (const json &f : json::parse(text))
      parsed.push_back(findingFrom(f));
    findings = std::move(parsed);
    return true;
  } catch (const std::exception &e) {
    error = e.what();
    return false;
  }
}

std::string entryToJson(const std::string &key, const IndexedUnit &unit) {
  json includes = json::array();
  for (const IncludedFile &file : unit.includes)
    includes.push_back({file.path, file.sha256});
  json j = {{"format", kEntryFormat},
            {"key", key},
            {"includes", includes},
            {"findings", findingsJson(unit.findings)},
            {"reach", json::parse(reach::toJson(unit.reach))},
            {"absent", unit.absent}};
  if (unit.problem)
    j["problem"] = {{"file", unit.problem->file},
                    {"errors", unit.problem->errors},
                    {"analyzedPartially", unit.problem->analyzedPartially},
                    {"fatalError", unit.problem->fatalError}};
  // The last member: a truncated file never parses as a complete entry.
  j["complete"] = true;
  return j.dump();
}

bool entryFromJson(const std::string &text, const std::string &origin,
                   const std::string &key, IndexedUnit &unit, std::string &error) {
  try {
    json j = json::parse(text);
    if (!j.is_object() || j.value("format", "") != kEntryFormat) {
      error = origin + ": not a " + std::string(kEntryFormat) + " entry";
      return false;
    }
    if (j.value("key", "") != key || !j.value("complete", false)) {
      error = origin + ": entry is for another key or incomplete";
      return false;
    }
    IndexedUnit parsed;
    for (const json &file : j.at("includes"))
      parsed.includes.push_back({file.at(0).get<std::string>(),
                                 file.at(1).get<std::string>()});
    for (const json &f : j.at("findings"))
      parsed.findings.push_back(findingFrom(f));
    if (j.contains("problem")) {
      const json &problem = j.at("problem");
      parsed.problem.emplace();
      parsed.problem->file = problem.at("file").get<std::string>();
      parsed.problem->errors = problem.at("errors").get<std::vector<std::string>>();
      parsed.problem->analyzedPartially = problem.at("analyzedPartially").get<bool>();
      parsed.problem->fatalError = problem.value("fatalError", "");
    }
    if (j.contains("absent"))
      parsed.absent = j.at("absent").get<std::vector<std::string>>();
    if (!reach::fromJson(j.at("reach").dump(), origin, parsed.reach, error))
      return false;
    if (parsed.includes.empty()) {
      error = origin + ": entry lists no files";
      return false;
    }
    unit = std::move(parsed);
    return true;
  } catch (const std::exception &e) {
    error = origin + ": malformed entry: " + e.what();
    return false;
  }
}

} // namespace streamlint::index
