#include "analyzer/driver/Shards.h"

#include "analyzer/driver/ExitCode.h"
#include "analyzer/driver/UnitAnalysis.h"
#include "analyzer/index/ShardPart.h"
#include "analyzer/support/Paths.h"
#include "analyzer/InputFile.h"
#include "analyzer/OutputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace streamlint {
namespace {

const std::string kTool = std::string("streamlint ") + STREAMLINT_VERSION;

llvm::Error mergeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string databaseDirectory(const AnalysisPlan &plan) {
  return std::string(llvm::sys::path::parent_path(absolutePath(plan.databasePath)));
}

std::string relativeFile(const AnalysisPlan &plan, const PlannedUnit &unit) {
  return relativePath(databaseDirectory(plan), absolutePath(unit.entry.file));
}

/// What a shard and the merge must agree on for a TU: the entry's command as
/// the database gives it, the arguments added on the command line, and the
/// checks and options its config gives. Independent of the machine's
/// toolkit and of the binary's time stamp (unlike the index key): a merge
/// job needs no CUDA toolkit.
std::string mergeKey(const PlannedUnit &unit, const AnalyzerOptions &options) {
  std::vector<std::string> parts = {
      kTool, unit.entry.directory, unit.entry.file,
      llvm::join(unit.entry.arguments, std::string(1, '\0')),
      llvm::join(options.translate.extraArgsBefore, std::string(1, '\0')),
      llvm::join(options.translate.extraArgs, std::string(1, '\0')),
      "checks=" + unit.config.checks};
  if (options.translate.parseLibraryBodies)
    parts.push_back("library bodies parsed");
  for (const auto &[name, value] : unit.config.checkOptions.all())
    parts.push_back(name + "=" + value);
  return index::keyOf(parts);
}

std::string shardName(unsigned index, unsigned count) {
  return std::to_string(index) + "/" + std::to_string(count);
}

/// The part files named by `paths`: files as given, directories searched
/// (recursively) for *.json, in name order.
llvm::Expected<std::vector<std::string>> partFiles(const std::vector<std::string> &paths) {
  std::vector<std::string> files;
  for (const std::string &path : paths) {
    if (!llvm::sys::fs::exists(path))
      return mergeError(path + ": no such shard part or directory");
    if (!llvm::sys::fs::is_directory(path)) {
      files.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    std::error_code error;
    for (llvm::sys::fs::recursive_directory_iterator it(path, error), end;
         it != end && !error; it.increment(error))
      if (llvm::StringRef(it->path()).ends_with(".json") &&
          !llvm::sys::fs::is_directory(it->path()))
        found.push_back(it->path());
    if (error)
      return mergeError(path + ": " + error.message());
    if (found.empty())
      return mergeError(path + ": directory holds no shard part (*.json)");
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
  }
  return files;
}

/// "1/4, 3/4", at most ten of them named.
std::string shardList(const std::vector<std::string> &names) {
  constexpr size_t kNamed = 10;
  std::vector<std::string> shown(names.begin(),
                                 names.begin() + std::min(names.size(), kNamed));
  std::string text = llvm::join(shown, ", ");
  if (names.size() > kNamed)
    text += " and " + std::to_string(names.size() - kNamed) + " more";
  return text;
}

/// A part not sealed with this merge's key: its findings are reported, but
/// nothing of it is written into the user's files (docs/index.md, "What the
/// index trusts").
void dropFixes(index::ShardPart &part) {
  for (index::ShardUnit &unit : part.units) {
    for (Finding &finding : unit.unit.findings)
      finding.fixes.clear();
    for (reach::PendingSite &site : unit.unit.reach.sites)
      site.finding.fixes.clear();
    for (auto &[id, facts] : unit.unit.reach.parts)
      facts = facts->withoutFixes();
  }
}

/// Reads every part and checks they form one complete set for this merge.
/// Parts not sealed with this machine's key are counted in `unsealed`.
llvm::Error readParts(const AnalysisPlan &plan, const AnalyzerOptions &options,
                      const std::vector<std::string> &files,
                      std::vector<index::ShardPart> &parts,
                      std::vector<int> &partOfShard, unsigned &unsealed) {
  std::string database = absolutePath(plan.databasePath);
  std::string keyProblem;
  std::optional<index::StoreAuthenticator> authenticator =
      index::StoreAuthenticator::load(keyProblem);
  // With a key the CI jobs share, a part not sealed with it was made up or
  // altered on the way: refused. Without one, parts from other machines
  // cannot be told from altered ones: their fixes are dropped instead.
  const char *sharedSecret = std::getenv("STREAMLINT_INDEX_KEY");
  bool sharedKey = sharedSecret && *sharedSecret;
  if (sharedKey && !authenticator)
    return mergeError(keyProblem);
  for (const std::string &file : files) {
    std::string text, error;
    if (!readInputFile(file, kShardPartLimits, text, error))
      return mergeError(file + ": cannot read the shard part: " + error);
    std::string_view body;
    index::SealState seal = index::openSealed(
        authenticator ? &*authenticator : nullptr, index::SealPurpose::ShardPart, text, body);
    index::ShardPart part;
    if (!index::shardPartFromJson(std::string(body), file, part, error))
      return mergeError(error);
    if (seal != index::SealState::Valid) {
      if (sharedKey)
        return mergeError(file + ": not sealed with STREAMLINT_INDEX_KEY: it was "
                          "altered, or written by a shard run without that key");
      dropFixes(part);
      ++unsealed;
    }
    if (part.tool != kTool)
      return mergeError(file + ": written by " + part.tool + ", this is " + kTool +
                        ": shards and merge must run the same version");
    if (part.database != database)
      return mergeError(file + ": written for the compile database " + part.database +
                        ", this merge reads " + database +
                        ": shards and merge must check the project out at the same "
                        "path (findings name absolute paths)");
    if (part.skipWithoutCuda != options.skipTranslationUnitsWithoutCuda)
      return mergeError(file + ": the shard ran " +
                        (part.skipWithoutCuda ? "without" : "with") +
                        " --all-translation-units, this merge " +
                        (part.skipWithoutCuda ? "with" : "without") + " it");
    if (!parts.empty() && part.count != parts.front().count)
      return mergeError(file + ": shard " + shardName(part.shard, part.count) + ", but " +
                        files.front() + " is shard " +
                        shardName(parts.front().shard, parts.front().count) +
                        ": all parts must come from one --shard=I/N set");
    if (parts.empty())
      partOfShard.assign(part.count, -1);
    int &slot = partOfShard[part.shard - 1];
    if (slot >= 0)
      return mergeError(file + " and " + files[slot] + " are both shard " +
                        shardName(part.shard, part.count));
    slot = static_cast<int>(parts.size());
    parts.push_back(std::move(part));
  }
  std::vector<std::string> missing;
  for (size_t shard = 0; shard < partOfShard.size(); ++shard)
    if (partOfShard[shard] < 0)
      missing.push_back(shardName(shard + 1, partOfShard.size()));
  if (!missing.empty())
    return mergeError("incomplete shard set: shard(s) " + shardList(missing) +
                      " missing (read: " + shardList(files) + ")");
  return llvm::Error::success();
}

} // namespace

llvm::Expected<ShardSpec> parseShardSpec(llvm::StringRef text) {
  auto [first, second] = text.split('/');
  ShardSpec spec;
  if (!text.contains('/') || first.getAsInteger(10, spec.index) ||
      second.getAsInteger(10, spec.count) || spec.count == 0 || spec.index == 0 ||
      spec.index > spec.count)
    return mergeError("--shard '" + text + "': expected I/N with 1 <= I <= N (e.g. 2/4)");
  if (spec.count > index::kMaxShards)
    return mergeError("--shard '" + text + "': at most " +
                      std::to_string(index::kMaxShards) + " shards");
  return spec;
}

int runShard(const AnalysisPlan &plan, const AnalyzerOptions &options,
             const CheckRegistry &registry, ShardSpec spec,
             const std::string &partPath, bool quiet) {
  std::vector<PlannedUnit> mine;
  index::ShardPart part;
  part.tool = kTool;
  part.shard = spec.index;
  part.count = spec.count;
  part.database = absolutePath(plan.databasePath);
  part.skipWithoutCuda = options.skipTranslationUnitsWithoutCuda;
  for (const PlannedUnit &unit : plan.units) {
    std::string file = relativeFile(plan, unit);
    if (index::shardOf(file, spec.count) != spec.index - 1)
      continue;
    mine.push_back(unit);
    part.units.push_back({file, mergeKey(unit, options)});
  }
  std::unique_ptr<index::ProjectIndex> projectIndex;
  if (!plan.cacheDirectory.empty())
    projectIndex = index::ProjectIndex::open(plan.cacheDirectory);
  std::vector<UnitResult> results;
  analyzeUnits(mine, 0, results, options, registry, projectIndex.get(), true);
  unsigned fromIndex = 0, problems = 0;
  for (size_t i = 0; i < mine.size(); ++i) {
    TranslationUnitOutcome &outcome = results[i].outcome;
    fromIndex += results[i].fromIndex;
    problems += outcome.problem.has_value();
    index::ShardUnit &unit = part.units[i];
    unit.skippedWithoutCuda = outcome.skippedWithoutCuda;
    unit.unit = {std::move(outcome.findings), std::move(outcome.reach),
                 std::move(outcome.includes), std::move(outcome.problem)};
  }
  if (projectIndex)
    for (const std::string &note : projectIndex->takeNotes())
      llvm::errs() << "streamlint: note: " << note << "\n";
  // Sealed, so that the merge can tell the part from one made up or edited
  // on the way; unsealed, the merge reports its findings but takes no fix.
  std::string keyProblem, error;
  std::optional<index::StoreAuthenticator> authenticator =
      index::StoreAuthenticator::load(keyProblem);
  std::string text = index::shardPartToJson(part);
  if (authenticator)
    text = authenticator->seal(index::SealPurpose::ShardPart, text);
  else
    llvm::errs() << "streamlint: note: the shard part is not sealed (" << keyProblem
                 << "): a merge reports its findings but applies or offers none "
                    "of its fixes\n";
  if (!writeFileAtomically(partPath, text, error)) {
    llvm::errs() << "streamlint: error: cannot write the shard part: " << partPath << ": "
                 << error << "\n";
    return ExitUsageError;
  }
  if (!quiet)
    llvm::errs() << "streamlint: shard " << shardName(spec.index, spec.count) << ": "
                 << mine.size() << " of " << plan.units.size()
                 << " translation unit(s) (" << fromIndex << " from the index, "
                 << problems << " not analyzed fully) written to " << partPath
                 << "; the report comes from --merge-shards over all "
                 << spec.count << " parts\n";
  return ExitClean;
}

llvm::Expected<AnalysisResult> mergeShards(const AnalysisPlan &plan,
                                           const AnalyzerOptions &options,
                                           const std::vector<std::string> &paths) {
  auto files = partFiles(paths);
  if (!files)
    return files.takeError();
  std::vector<index::ShardPart> parts;
  std::vector<int> partOfShard;
  unsigned unsealed = 0;
  if (llvm::Error error = readParts(plan, options, *files, parts, partOfShard, unsealed))
    return std::move(error);

  unsigned count = parts.front().count;
  // Each part's results by file; `used` marks those taken by a planned TU.
  std::vector<std::multimap<std::string, size_t>> byFile(parts.size());
  std::vector<std::vector<bool>> used(parts.size());
  for (size_t p = 0; p < parts.size(); ++p) {
    for (size_t u = 0; u < parts[p].units.size(); ++u)
      byFile[p].emplace(parts[p].units[u].file, u);
    used[p].assign(parts[p].units.size(), false);
  }
  std::map<std::string, std::string> digests;
  std::vector<UnitResult> results(plan.units.size());
  for (size_t i = 0; i < plan.units.size(); ++i) {
    const PlannedUnit &unit = plan.units[i];
    std::string file = relativeFile(plan, unit);
    unsigned shard = index::shardOf(file, count);
    size_t p = partOfShard[shard];
    const std::string &origin = (*files)[p];
    std::string key = mergeKey(unit, options);
    auto [begin, end] = byFile[p].equal_range(file);
    if (begin == end)
      return mergeError(origin + " (shard " + shardName(shard + 1, count) +
                        ") has no result for " + file + ", which belongs to it: the "
                        "compile database changed since the shards ran");
    auto match = std::find_if(begin, end, [&](const auto &candidate) {
      return !used[p][candidate.second] &&
             parts[p].units[candidate.second].key == key;
    });
    if (match == end)
      return mergeError(origin + ": " + file + " was analyzed with another "
                        "command, config or options than this merge's (did the "
                        "compile database, .streamlint.yaml, --checks, "
                        "--check-option or --extra-arg change?)");
    used[p][match->second] = true;
    index::ShardUnit &recorded = parts[p].units[match->second];
    for (const index::IncludedFile &read : recorded.unit.includes) {
      if (read.system)
        continue; // the merge's image may differ; the shard read the same commit
      auto found = digests.find(read.path);
      if (found == digests.end())
        found = digests.emplace(read.path, index::fileSha256(read.path)).first;
      if (found->second != read.sha256)
        return mergeError(origin + ": " + read.path + " changed (or is missing) "
                          "since shard " + shardName(shard + 1, count) + " read it "
                          "for " + file + ": merge on the commit the shards analyzed");
    }
    TranslationUnitOutcome &outcome = results[i].outcome;
    outcome.findings = std::move(recorded.unit.findings);
    outcome.reach = std::move(recorded.unit.reach);
    outcome.includes = std::move(recorded.unit.includes);
    outcome.problem = std::move(recorded.unit.problem);
    outcome.skippedWithoutCuda = recorded.skippedWithoutCuda;
    outcome.checksRan = !outcome.skippedWithoutCuda;
  }
  for (size_t p = 0; p < parts.size(); ++p)
    for (size_t u = 0; u < used[p].size(); ++u)
      if (!used[p][u])
        return mergeError((*files)[p] + ": has a result for " + parts[p].units[u].file +
                          ", which this merge does not analyze: the compile database " +
                          absolutePath(plan.databasePath) +
                          " or a config's ExcludePaths changed since the shards ran");
  AnalysisResult result = resultOfWholeDatabase(plan, std::move(results));
  if (unsealed)
    result.notes.push_back(
        std::to_string(unsealed) + " of " + std::to_string(parts.size()) +
        " shard part(s) are not sealed with this machine's index key: their "
        "findings are reported, their fixes are neither offered nor applied "
        "(give the shard and merge jobs one STREAMLINT_INDEX_KEY; docs/index.md)");
  return result;
}

} // namespace streamlint
