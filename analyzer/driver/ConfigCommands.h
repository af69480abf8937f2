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

/// "streamlint: skipped 2 files not in build/compile_commands.json: a.cu b.cuh"
/// (paths relative to the current directory where below it); "" if none.
std::string skippedFilesNote(const AnalysisPlan &plan);

} // namespace streamlint
