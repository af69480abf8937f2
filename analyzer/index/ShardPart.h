#pragma once
// CI shards: which shard a TU belongs to, and the file a shard run writes
// (its TUs' results, whole-program summaries included) for the merge step
// to redo the whole-program pass from. docs/index.md, "CI shards".

#include "analyzer/Finding.h"
#include "analyzer/index/IndexEntry.h"

#include <string>
#include <vector>

namespace streamlint::index {

/// The format every shard part names; another format is refused.
inline constexpr const char *kShardFormat = "streamlint-shard-3";

/// The most shards a database may be split into (a CI matrix has a few
/// hundred jobs at most; a merge keeps a slot per shard).
inline constexpr unsigned kMaxShards = 1000;

/// The shard (0-based) of a TU: the first 64 bits of the SHA-256 of its
/// path relative to the compile database's directory (support/Paths.h's
/// relativePath, the same on every machine), modulo `count`.
unsigned shardOf(const std::string &relativeFile, unsigned count);

/// One TU's result as a shard run produced it.
struct ShardUnit {
  std::string file;         // relative to the database's directory
  std::string key;          // command, config and options (mergeKey)
  bool skippedWithoutCuda = false;
  IndexedUnit unit;         // findings, summary, files read with digests
};

/// What one shard run writes.
struct ShardPart {
  std::string tool;         // "streamlint <version>"
  unsigned shard = 0;       // 1-based
  unsigned count = 0;
  std::string database;     // absolute path of the compile_commands.json
  bool skipWithoutCuda = false; // as --all-translation-units was absent
  std::vector<ShardUnit> units;
};

/// The part's JSON text (every byte of every string kept:
/// analyzer/index/StoredJson.h); the shard run seals it (StoreAuthentication.h).
std::string shardPartToJson(const ShardPart &part);
/// False (with `error`, which names `origin`) unless `text` is a complete
/// part of this format.
bool shardPartFromJson(const std::string &text, const std::string &origin,
                       ShardPart &part, std::string &error);

} // namespace streamlint::index
