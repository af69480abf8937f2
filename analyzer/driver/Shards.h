#pragma once
// CI shards: `--shard=I/N` analyzes a deterministic 1/N of a whole-database
// plan and writes a shard part; `--merge-shards PART...` rebuilds the report
// of one whole-database run from every part, redoing the whole-program pass
// from the TUs' summaries. docs/index.md, "CI shards".

#include "analyzer/driver/Analyzer.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace streamlint {

/// --shard=I/N; count 0 = not sharded.
struct ShardSpec {
  unsigned index = 0; // 1-based
  unsigned count = 0;
};

/// Parses "I/N" (1 <= I <= N).
llvm::Expected<ShardSpec> parseShardSpec(llvm::StringRef text);

/// Analyzes the plan's TUs that fall in `spec` (through the index when the
/// plan has one) and writes the part to `partPath` atomically. Returns an
/// exit code: 0, or 2 when the part cannot be written.
int runShard(const AnalysisPlan &plan, const AnalyzerOptions &options,
             const CheckRegistry &registry, ShardSpec spec,
             const std::string &partPath, bool quiet);

/// The result a run naming no file on `plan` gives, from the parts named by
/// `paths` (files, or directories searched for *.json). Errors (exit 2) name
/// the file: unreadable, not a part, another version or database, a shard
/// missing or given twice, a TU missing or analyzed with another command or
/// config, a file changed since the shard read it.
llvm::Expected<AnalysisResult> mergeShards(const AnalysisPlan &plan,
                                           const AnalyzerOptions &options,
                                           const std::vector<std::string> &paths);

} // namespace streamlint
