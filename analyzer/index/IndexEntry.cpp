#include "analyzer/index/IndexEntry.h"
#include "analyzer/InputFile.h"
#include "analyzer/StoredJson.h"
#include "analyzer/reach/SummaryJson.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

namespace streamlint::index {

using nlohmann::json;
using reach::findingFrom;
using reach::findingJson;

std::string sha256Hex(llvm::StringRef bytes) {
  auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(bytes));
  return llvm::toHex(digest, /*LowerCase=*/true);
}

std::string fileSha256(const std::string &path) {
  // A header replaced by a FIFO or a device is "changed", never waited on.
  std::string text, error;
  if (!readInputFile(path, kSourceFileLimits, text, error))
    return "";
  return sha256Hex(text);
}

void addUnitJson(json &object, const IndexedUnit &unit) {
  json includes = json::array();
  for (const IncludedFile &file : unit.includes)
    includes.push_back(file.system ? json{file.path, file.sha256, "system"}
                                   : json{file.path, file.sha256});
  json findings = json::array();
  for (const Finding &finding : unit.findings)
    findings.push_back(findingJson(finding));
  object["includes"] = std::move(includes);
  object["findings"] = std::move(findings);
  object["reach"] = reach::summaryJson(unit.reach);
  object["absent"] = unit.absent;
  if (unit.problem)
    object["problem"] = {{"file", unit.problem->file},
                         {"errors", unit.problem->errors},
                         {"analyzedPartially", unit.problem->analyzedPartially},
                         {"crashed", unit.problem->crashed},
                         {"internalError", unit.problem->internalError},
                         {"fatalError", unit.problem->fatalError}};
}

IndexedUnit unitFrom(const json &object, const std::string &origin) {
  IndexedUnit unit;
  for (const json &file : object.at("includes"))
    unit.includes.push_back({file.at(0).get<std::string>(), file.at(1).get<std::string>(),
                             file.size() > 2 && file.at(2) == "system"});
  for (const json &finding : object.at("findings"))
    unit.findings.push_back(findingFrom(finding));
  std::string error;
  if (!reach::summaryFrom(object.at("reach"), origin, unit.reach, error))
    throw std::runtime_error(error);
  unit.absent = object.at("absent").get<std::vector<std::string>>();
  if (object.contains("problem")) {
    const json &problem = object.at("problem");
    TranslationUnitProblem &p = unit.problem.emplace();
    p.file = problem.at("file").get<std::string>();
    p.errors = problem.at("errors").get<std::vector<std::string>>();
    p.analyzedPartially = problem.at("analyzedPartially").get<bool>();
    p.crashed = problem.at("crashed").get<bool>();
    p.internalError = problem.at("internalError").get<bool>();
    p.fatalError = problem.at("fatalError").get<std::string>();
  }
  return unit;
}

std::string entryToJson(const std::string &key, const IndexedUnit &unit) {
  json j = {{"format", kEntryFormat}, {"key", key}};
  addUnitJson(j, unit);
  // The last member: a truncated file never parses as a complete entry.
  j["complete"] = true;
  return dumpStored(std::move(j));
}

bool entryFromJson(const std::string &text, const std::string &origin,
                   const std::string &key, IndexedUnit &unit, std::string &error) {
  try {
    json j = parseStored(text);
    if (!j.is_object() || j.value("format", "") != kEntryFormat) {
      error = origin + ": not a " + std::string(kEntryFormat) + " entry";
      return false;
    }
    if (j.value("key", "") != key || !j.value("complete", false)) {
      error = origin + ": entry is for another key or incomplete";
      return false;
    }
    IndexedUnit parsed = unitFrom(j, origin);
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
