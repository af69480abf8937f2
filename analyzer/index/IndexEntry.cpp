#include "analyzer/index/IndexEntry.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SHA256.h"

#include <nlohmann/json.hpp>

namespace streamlint::index {

using nlohmann::json;

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

json pointJson(const SourcePoint &p) { return {p.file, p.line, p.column}; }
SourcePoint pointFrom(const json &j) {
  return {j.at(0).get<std::string>(), j.at(1).get<unsigned>(),
          j.at(2).get<unsigned>()};
}

Severity severityFrom(const std::string &name) {
  if (name == "note")
    return Severity::Note;
  if (name == "error")
    return Severity::Error;
  if (name == "warning")
    return Severity::Warning;
  throw std::runtime_error("unknown severity '" + name + "'");
}

json findingJson(const Finding &f) {
  json related = json::array();
  for (const RelatedLocation &r : f.related)
    related.push_back({{"location", pointJson(r.location)}, {"message", r.message}});
  json fixes = json::array();
  for (const FixIt &fix : f.fixes) {
    json edits = json::array();
    for (const TextEdit &e : fix.edits)
      edits.push_back({{"file", e.file}, {"offset", e.offset}, {"length", e.length},
                       {"replacement", e.replacement}, {"begin", pointJson(e.begin)},
                       {"end", pointJson(e.end)}, {"fileDigest", e.fileDigest}});
    fixes.push_back({{"description", fix.description}, {"edits", edits},
                     {"applicable", fix.applicable}});
  }
  return {{"check", f.checkId}, {"severity", severityName(f.severity)},
          {"location", pointJson(f.location)}, {"end", pointJson(f.end)},
          {"message", f.message}, {"related", related}, {"fixes", fixes},
          {"function", f.function}, {"snippet", f.snippet},
          {"fingerprint", f.fingerprint}};
}

Finding findingFrom(const json &j) {
  Finding f;
  f.checkId = j.at("check").get<std::string>();
  f.severity = severityFrom(j.at("severity").get<std::string>());
  f.location = pointFrom(j.at("location"));
  f.end = pointFrom(j.at("end"));
  f.message = j.at("message").get<std::string>();
  for (const json &r : j.at("related"))
    f.related.push_back({pointFrom(r.at("location")), r.at("message").get<std::string>()});
  for (const json &fix : j.at("fixes")) {
    FixIt parsed;
    parsed.description = fix.at("description").get<std::string>();
    parsed.applicable = fix.at("applicable").get<bool>();
    for (const json &e : fix.at("edits")) {
      TextEdit edit;
      edit.file = e.at("file").get<std::string>();
      edit.offset = e.at("offset").get<unsigned>();
      edit.length = e.at("length").get<unsigned>();
      edit.replacement = e.at("replacement").get<std::string>();
      edit.begin = pointFrom(e.at("begin"));
      edit.end = pointFrom(e.at("end"));
      edit.fileDigest = e.at("fileDigest").get<std::string>();
      parsed.edits.push_back(std::move(edit));
    }
    f.fixes.push_back(std::move(parsed));
  }
  f.function = j.at("function").get<std::string>();
  f.snippet = j.at("snippet").get<std::string>();
  f.fingerprint = j.at("fingerprint").get<std::string>();
  return f;
}

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
