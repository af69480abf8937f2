#include "analyzer/index/ShardPart.h"
#include "analyzer/StoredJson.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

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

json unitJson(const ShardUnit &unit) {
  json j = {{"file", unit.file},
            {"key", unit.key},
            {"skippedWithoutCuda", unit.skippedWithoutCuda}};
  addUnitJson(j, unit.unit);
  return j;
}

ShardUnit unitFromJson(const json &j, const std::string &origin) {
  ShardUnit unit;
  unit.file = j.at("file").get<std::string>();
  unit.key = j.at("key").get<std::string>();
  unit.skippedWithoutCuda = j.at("skippedWithoutCuda").get<bool>();
  try {
    unit.unit = unitFrom(j, origin);
  } catch (const std::exception &e) {
    throw std::runtime_error(unit.file + ": " + e.what());
  }
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
  return dumpStored(std::move(j));
}

bool shardPartFromJson(const std::string &text, const std::string &origin,
                       ShardPart &part, std::string &error) {
  json j;
  try {
    j = parseStored(text);
  } catch (const std::exception &e) {
    error = origin + ": not a shard part (truncated or not JSON: " + e.what() + ")";
    return false;
  }
  // `value("format", "")` would throw on a format that is not a string
  // (`{"format":7}`, found by fuzz_shard_part): test the type first.
  const bool isShardPart = j.is_object() && j.contains("format") && j["format"].is_string() &&
                           j["format"].get<std::string>() == kShardFormat;
  if (!isShardPart) {
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
    if (parsed.count == 0 || parsed.count > kMaxShards || parsed.shard == 0 ||
        parsed.shard > parsed.count)
      throw std::runtime_error("shard " + std::to_string(parsed.shard) + "/" +
                               std::to_string(parsed.count) + " is out of range");
    for (const json &unit : j.at("units"))
      parsed.units.push_back(unitFromJson(unit, origin));
    part = std::move(parsed);
    return true;
  } catch (const std::exception &e) {
    error = origin + ": malformed shard part: " + e.what();
    return false;
  }
}

} // namespace streamlint::index
