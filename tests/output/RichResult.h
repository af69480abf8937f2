#pragma once
// A result that exercises every field the writers render: related locations,
// fixes (applicable and advice), UTF-8 source, runtime evidence, a file
// outside the base directory and a translation-unit problem; its findings
// carry fingerprints, as the driver hands them to the writers.

#include "analyzer/Finding.h"
#include "analyzer/baseline/Fingerprint.h"
#include "analyzer/output/Output.h"
#include "analyzer/support/SourceTextCache.h"

#include <string>

namespace streamlint::testing {

inline constexpr const char *kBase = "/work/proj";
inline constexpr const char *kKernelFile = "/work/proj/src/kernels.cu";
inline constexpr const char *kOutsideFile = "/opt/other lib/util.cuh";

/// Line 3 has a two-byte 'é' and a three-byte '→' before the call.
inline const char *kKernelSource =
    "#include <cuda_runtime.h>\n"
    "void copy(float *d, const float *h, size_t n) {\n"
    "  /* é → */ cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);\n"
    "  kernel<<<1, 1>>>(d);\n"
    "}\n";

inline OutputOptions richOptions() {
  OutputOptions o;
  o.baseDirectory = kBase;
  o.toolVersion = "0.1.0";
  RuleInfo r;
  r.id = "sync-memcpy";
  r.shortDescription = "Synchronous copy in stream code.";
  r.fullDescription = "cudaMemcpy blocks the host and serializes streams.";
  r.helpText = "Use cudaMemcpyAsync on a stream with pinned memory.";
  r.helpUri = "https://example.invalid/docs/checks/sync-memcpy.md";
  o.rules.push_back(r);
  r.id = "default-stream";
  r.shortDescription = "Launch on the legacy default stream.";
  r.fullDescription = "The legacy default stream synchronizes with all others.";
  r.helpText = "Pass an explicit stream.";
  r.helpUri = "https://example.invalid/docs/checks/default-stream.md";
  o.rules.push_back(r);
  return o;
}

inline AnalysisResult richResult(SourceTextCache &sources) {
  sources.setContents(kKernelFile, kKernelSource);
  sources.setContents(kOutsideFile, "inline void g() {\n  h();\n}\n");
  AnalysisResult result;
  result.translationUnits = 2;

  Finding copy;
  copy.checkId = "sync-memcpy";
  copy.location = {kKernelFile, 3, 16}; // byte 16 = 'c' after "  /* é → */ "
  copy.end = {kKernelFile, 3, 59};      // the ';'
  copy.message = "synchronous \"cudaMemcpy\" in a stream-ordered function";
  copy.function = "copy";
  copy.snippet = "cudaMemcpy(d, h, n, cudaMemcpyHostToDevice);";
  copy.related.push_back({{kOutsideFile, 2, 3}, "called from here"});
  FixIt fix;
  fix.description = "use cudaMemcpyAsync";
  TextEdit edit;
  edit.file = kKernelFile;
  edit.offset = 26 + 48 + 15; // line 3 starts at byte 74; 'c' is 15 bytes in
  edit.length = 10;
  edit.replacement = "cudaMemcpyAsync";
  edit.begin = {kKernelFile, 3, 16};
  edit.end = {kKernelFile, 3, 26};
  fix.edits.push_back(edit);
  copy.fixes.push_back(fix);
  FixIt advice;
  advice.description = "consider pinned memory";
  advice.applicable = false;
  TextEdit insert;
  insert.file = kKernelFile;
  insert.offset = 26;
  insert.length = 0;
  insert.replacement = "// TODO: pin h\n";
  insert.begin = {kKernelFile, 2, 1};
  insert.end = {kKernelFile, 2, 1};
  advice.edits.push_back(insert);
  copy.fixes.push_back(advice);
  DynamicEvidence evidence;
  evidence.status = DynamicStatus::Confirmed;
  evidence.calls = 1200;
  evidence.misuses = 1200;
  evidence.hostTimeUs = 3100;
  evidence.bytes = 8 << 20;
  evidence.detail = "pageable host memory";
  copy.dynamic = evidence;
  result.findings.push_back(copy);

  Finding launch;
  launch.checkId = "default-stream";
  launch.location = {kKernelFile, 4, 3};
  launch.end = {kKernelFile, 4, 21};
  launch.message = "kernel launch on the legacy default stream";
  launch.function = "copy";
  result.findings.push_back(launch);

  Finding outside;
  outside.checkId = "streamlint-nolint";
  outside.location = {kOutsideFile, 2, 3};
  outside.end = {kOutsideFile, 2, 5};
  outside.message = "50% of\nlines, with: commas";
  outside.severity = Severity::Note;
  result.findings.push_back(outside);

  TranslationUnitProblem problem;
  problem.file = "/work/proj/src/broken.cu";
  problem.errors.push_back(
      "/work/proj/src/broken.cu:3:1: error: unknown type name 'texture'");
  result.problems.push_back(problem);
  assignFingerprints(result.findings, kBase, sources);
  return result;
}

} // namespace streamlint::testing
