#pragma once
// The individual writers behind writeFindings(); each gets findings that all
// carry a fingerprint (assigned by the driver) and a cache of the source files.

#include "analyzer/output/Output.h"

namespace streamlint {

class SourceTextCache;

void writeText(const AnalysisResult &result, const OutputOptions &options,
               SourceTextCache &sources, llvm::raw_ostream &out);
void writeJson(const AnalysisResult &result, const OutputOptions &options,
               SourceTextCache &sources, llvm::raw_ostream &out);
void writeSarif(const AnalysisResult &result, const OutputOptions &options,
                SourceTextCache &sources, llvm::raw_ostream &out);
void writeGithub(const AnalysisResult &result, const OutputOptions &options,
                 SourceTextCache &sources, llvm::raw_ostream &out);
void writeGitlab(const AnalysisResult &result, const OutputOptions &options,
                 SourceTextCache &sources, llvm::raw_ostream &out);

} // namespace streamlint
