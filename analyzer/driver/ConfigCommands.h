#pragma once
// The driver's config-related steps, kept out of main: --dump-config and the
// note about named files skipped by --skip-files-not-in-database.

#include "analyzer/driver/Analyzer.h"

#include "llvm/Support/raw_ostream.h"

namespace streamlint {

/// Prints the effective config for the first named file (else the current
/// directory) as YAML to `out`; a bad config file is an error (exit code 2).
llvm::Error dumpEffectiveConfig(const AnalyzerOptions &options,
                                const CheckRegistry &registry, llvm::raw_ostream &out);

/// --list-checks: the checks the effective config for the first named file
/// (else the current directory) enables, --checks included, as
/// "id: description" lines or (`json`) a JSON array of {id, description,
/// severity, help_uri}. An empty list is an error (no checks enabled).
llvm::Error listEnabledChecks(const AnalyzerOptions &options, const CheckRegistry &registry,
                              bool json, bool allowNoChecks, llvm::raw_ostream &out);

/// "streamlint: skipped 2 files not in build/compile_commands.json: a.cu b.cuh"
/// (paths relative to the current directory where below it); "" if none.
std::string skippedFilesNote(const AnalysisPlan &plan);

} // namespace streamlint
