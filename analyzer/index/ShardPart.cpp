#include "analyzer/index/ShardPart.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

namespace streamlint::index {

using nlohmann::json;

unsigned shardOf(const std::string &relativeFile, unsigned count) {
  auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(relativeFile));
  uint64_t value = 0;
  for (int i = 0; i < 8; ++i)
    value = (value << 8) | digest[i];
  return static_cast<unsigned>(value % count);
}

namespace {

json problemJson(const TranslationUnitProblem &problem) {
  return {{"file", problem.file},
          {"errors", problem.errors},
          {"analyzedPartially", problem.analyzedPartially},
          {"crashed", problem.crashed},
          {"fatalError", problem.fatalError}};
}

TranslationUnitProblem problemFrom(const json &j) {
  TranslationUnitProblem problem;
  problem.file = j.at("file").get<std::string>();
  problem.errors = j.at("errors").get<std::vector<std::string>>();
  problem.analyzedPartially = j.at("analyzedPartially").get<bool>();
  problem.crashed = j.at("crashed").get<bool>();
  problem.fatalError = j.at("fatalError").get<std::string>();
  return problem;
}

json unitJson(const ShardUnit &unit) {
  json includes = json::array();
  for (const IncludedFile &file : unit.unit.includes)
    includes.push_back({file.path, file.sha256});
  json j = {{"file", unit.file},
            {"key", unit.key},
            {"skippedWithoutCuda", unit.skippedWithoutCuda},
            {"includes", includes},
            {"findings", json::parse(findingsToJson(unit.unit.findings))},
            {"reach", json::parse(reach::toJson(unit.unit.reach))}};
  if (unit.unit.problem)
    j["problem"] = problemJson(*unit.unit.problem);
  return j;
}

ShardUnit unitFrom(const json &j, const std::string &origin) {
  ShardUnit unit;
  unit.file = j.at("file").get<std::string>();
  unit.key = j.at("key").get<std::string>();
  unit.skippedWithoutCuda = j.at("skippedWithoutCuda").get<bool>();
  for (const json &file : j.at("includes"))
    unit.unit.includes.push_back({file.at(0).get<std::string>(),
                                  file.at(1).get<std::string>()});
  std::string error;
  if (!findingsFromJson(j.at("findings").dump(), unit.unit.findings, error))
    throw std::runtime_error(unit.file + ": findings: " + error);
  if (!reach::fromJson(j.at("reach").dump(), origin, unit.unit.reach, error))
    throw std::runtime_error(unit.file + ": " + error);
  if (j.contains("problem"))
    unit.unit.problem = problemFrom(j.at("problem"));
  return unit;
}

} // namespace

std::string shardPartToJson(const ShardPart &part) {
  json units = json::array();
  for (const ShardUnit &unit : part.units)
    units.push_back(unitJson(unit));
  json j = {{"format", kShardFormat},
            {"tool", part.tool},
            {"shard", part.shard},
            {"count", part.count},
            {"database", part.database},
            {"skipWithoutCuda", part.skipWithoutCuda},
            {"units", units}};
  // The last member: a truncated file never parses as a complete part.
  j["complete"] = true;
  return j.dump();
}

bool shardPartFromJson(const std::string &text, const std::string &origin,
                       ShardPart &part, std::string &error) {
  json j;
  try {
    j = json::parse(text);
  } catch (const std::exception &e) {
    error = origin + ": not a shard part (truncated or not JSON: " + e.what() + ")";
    return false;
  }
  if (!j.is_object() || j.value("format", "") != kShardFormat) {
    error = origin + ": not a " + std::string(kShardFormat) +
            " shard part (written by `streamlint --shard=I/N -o FILE`)";
    return false;
  }
  try {
    if (!j.value("complete", false))
      throw std::runtime_error("incomplete (the shard run did not finish writing it)");
    ShardPart parsed;
    parsed.tool = j.at("tool").get<std::string>();
    parsed.shard = j.at("shard").get<unsigned>();
    parsed.count = j.at("count").get<unsigned>();
    parsed.database = j.at("database").get<std::string>();
    parsed.skipWithoutCuda = j.at("skipWithoutCuda").get<bool>();
    if (parsed.count == 0 || parsed.shard == 0 || parsed.shard > parsed.count)
      throw std::runtime_error("shard " + std::to_string(parsed.shard) + "/" +
                               std::to_string(parsed.count) + " is out of range");
    for (const json &unit : j.at("units"))
      parsed.units.push_back(unitFrom(unit, origin));
    part = std::move(parsed);
    return true;
  } catch (const std::exception &e) {
    error = origin + ": malformed shard part: " + e.what();
    return false;
  }
}

bool writeFileAtomically(const std::string &path, const std::string &text,
                         std::string &error) {
  llvm::SmallString<256> model(path);
  model += ".tmp-%%%%%%%%";
  int fd = -1;
  llvm::SmallString<256> temporary;
  if (std::error_code code = llvm::sys::fs::createUniqueFile(model, fd, temporary)) {
    error = path + ": " + code.message();
    return false;
  }
  {
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
    out << text;
    out.close();
    if (out.has_error()) {
      out.clear_error();
      llvm::sys::fs::remove(temporary);
      error = path + ": write failed";
      return false;
    }
  }
  if (std::error_code code = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    error = path + ": " + code.message();
    return false;
  }
  return true;
}

} // namespace streamlint::index
