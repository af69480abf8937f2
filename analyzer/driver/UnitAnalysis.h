#pragma once
// Analyzing one planned translation unit through the project index: the
// entry is reused when its key (tool, command, config) and the digests of
// every file the TU read still match; otherwise the TU is parsed and stored.

#include "analyzer/driver/Analyzer.h"
#include "analyzer/driver/TranslationUnitRunner.h"
#include "analyzer/index/PreambleStore.h"
#include "analyzer/index/ProjectIndex.h"

namespace streamlint {

struct UnitResult {
  TranslationUnitOutcome outcome;
  bool fromIndex = false;
  /// Whether its parse used a preamble, reused or built (PreambleParse.h).
  PreambleUse::State preamble = PreambleUse::None;
};

/// Translates, (optionally) skips a TU without CUDA, then reads the index or
/// parses (on a preamble from `preambles`, when set); crashes are isolated
/// when options.crashRecovery. `index` and `preambles` may be null.
/// `lastOfProcess`: the process parses no other TU; its AST is left to the
/// exit (analyzeTranslationUnit's keepAst).
UnitResult analyzePlannedUnit(const PlannedUnit &unit, bool skipWithoutCuda,
                              const AnalyzerOptions &options,
                              const CheckRegistry &registry,
                              index::ProjectIndex *index,
                              index::PreambleStore *preambles = nullptr,
                              bool lastOfProcess = false,
                              const std::vector<std::string> &sharedPrefix = {});

/// For each of `units`, the leading directives of its include prefix whose
/// preamble it parses on, shared with other units whose preamble key
/// (sharedPreambleKey) agrees; empty where none (SharedPrefix.h). Where the
/// choice depends on what the runs cost, their preprocessed tokens are
/// counted (PrefixCost.h) and kept in `costDirectory`.
std::vector<std::vector<std::string>> sharedPrefixesOf(const std::vector<PlannedUnit> &units,
                                                       const AnalyzerOptions &options,
                                                       const std::string &costDirectory);

/// Analyzes units[first..] in parallel (options.jobs) into results[first..]
/// (`results` is resized to `units`). `index` may be null; with one and
/// options.preambles, parses use the preambles kept beside it. `lastBatch`:
/// the process parses no TU after these, so a lone one keeps its AST to the
/// exit.
void analyzeUnits(const std::vector<PlannedUnit> &units, size_t first,
                  std::vector<UnitResult> &results, const AnalyzerOptions &options,
                  const CheckRegistry &registry, index::ProjectIndex *index,
                  bool lastBatch);

/// The report of a plan naming no file from its units' results (in plan
/// order): each TU's findings as its config filters them, the whole-program
/// pass over every summary, sorted and deduplicated. A run naming no file
/// and the merge of CI shards (analyzer/driver/Shards.h) both end here.
AnalysisResult resultOfWholeDatabase(const AnalysisPlan &plan,
                                     std::vector<UnitResult> results,
                                     SummaryCounts *counts = nullptr);

/// What a TU's parse depends on besides the files it reads: tool identity,
/// translated command, toolchain, in-memory files, include path variables.
std::string unitParseKey(const ClangInvocation &invocation, const Toolchain &toolchain);

/// What a preamble of a TU depends on besides its prefix and the files the
/// prefix reads: the parse key with the main file's directory in place of
/// its name, so TUs of one directory whose commands differ only in the file
/// share their prefix's preamble (docs/index.md, "Preambles").
std::string sharedPreambleKey(const ClangInvocation &invocation, const Toolchain &toolchain);

/// The index key of a TU: its parse key and the checks and options it
/// runs with.
std::string unitKey(const ClangInvocation &invocation, const Toolchain &toolchain,
                    const EffectiveConfig &config);

/// The clang invocation for a unit, with an interpolated file substituted.
ClangInvocation invocationFor(const PlannedUnit &unit, const Toolchain &toolchain,
                              const TranslateOptions &options);

} // namespace streamlint
