#pragma once
// The data model every part of streamlint shares: checks produce Findings, the
// runtime-trace merge annotates them, outputs render them. No clang types here,
// so outputs, merge and their tests build without LibTooling.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace streamlint {

/// How serious a finding is; maps to clang's warning/note and SARIF's level.
enum class Severity { Note, Warning, Error };
const char *severityName(Severity severity); // "note", "warning", "error"

/// A point in a source file. `file` is absolute and normalized; line and
/// column are 1-based and the column counts bytes, as clang does.
struct SourcePoint {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
};

/// One text replacement in clang-apply-replacements' terms.
struct TextEdit {
  std::string file;        // absolute path
  unsigned offset = 0;     // 0-based byte offset
  unsigned length = 0;     // bytes replaced
  std::string replacement;
  SourcePoint begin;       // line/column of offset, for SARIF and JSON
  SourcePoint end;         // line/column of offset + length
  /// contentDigest() of the whole file as analyzed; --fix leaves the file
  /// alone when its bytes no longer match. "" = not known (checked by position).
  std::string fileDigest;
};

/// An edit of a fix that another check's fix also makes, and that the fix
/// relies on being that check's: the fix is applicable only when, among
/// the findings reported in the same run, a finding of `checkId` carries an
/// applicable fix whose edits include `edit` and are all the fix's own
/// (settleFixPrerequisites, analyzer/fix/FixPrerequisites.h).
struct FixPrerequisite {
  std::string checkId;
  TextEdit edit;
  std::string what; ///< for the note: "the cudaMemcpyAsync at line 125"
};

/// A suggested fix. Only `applicable` fixes are applied by --fix; the others
/// are advice shown to the user (e.g. "consider cudaStreamPerThread").
struct FixIt {
  std::string description;
  std::vector<TextEdit> edits;
  bool applicable = true;
  /// Other checks' fixes this one relies on; it carries their edits too, so
  /// --fix applies all of them or none.
  std::vector<FixPrerequisite> prerequisites;
};

/// A secondary location: a step of a call chain, where memory came from, a loop.
struct RelatedLocation {
  SourcePoint location;
  std::string message;
};

/// What the runtime probe saw at a finding's call site (streamlint --trace).
enum class DynamicStatus {
  Confirmed,   // the misuse happened at run time
  Refuted,     // the site ran and the misuse did not happen
  NotReached,  // the site never ran
  RuntimeOnly, // seen at run time only; no static finding matched
};
const char *dynamicStatusName(DynamicStatus status); // "confirmed", ...

/// What run-time evidence adds up: per check and line in a trace's
/// observations (analyzer/trace/TraceFormat.h) and per finding.
struct EvidenceCounts {
  std::uint64_t calls = 0;       // times the site ran
  std::uint64_t misuses = 0;     // times the misuse happened
  double hostTimeUs = 0;         // host time spent in the calls
  std::uint64_t bytes = 0;       // bytes moved, where it applies
};

/// The one summing of evidence counts: the launcher's observations of one
/// line, several traces' and a finding's evidence all add up through it.
inline void accumulate(EvidenceCounts &into, const EvidenceCounts &from) {
  into.calls += from.calls;
  into.misuses += from.misuses;
  into.hostTimeUs += from.hostTimeUs;
  into.bytes += from.bytes;
}

struct DynamicEvidence : EvidenceCounts {
  DynamicStatus status = DynamicStatus::NotReached;
  std::string detail;            // human-readable summary
};

/// One diagnostic produced by a check.
struct Finding {
  std::string checkId;
  Severity severity = Severity::Warning;
  SourcePoint location;     // where the caret goes (start of the call)
  SourcePoint end;          // end of the offending statement (inclusive)
  std::string message;
  std::vector<RelatedLocation> related;
  std::vector<FixIt> fixes;
  std::string function;     // enclosing function, qualified ("" at file scope)
  std::string snippet;      // statement text, whitespace-normalized (fingerprints)
  std::optional<DynamicEvidence> dynamic;
  std::string fingerprint;  // baseline identity; see analyzer/baseline/Fingerprint.h
};

/// Deterministic order: file, line, column, check id, message.
bool findingLess(const Finding &a, const Finding &b);

/// A translation unit that could not be analyzed fully.
struct TranslationUnitProblem {
  std::string file;                 // the main file of the TU
  std::vector<std::string> errors;  // first clang errors, "file:line:col: error: ..."
  bool analyzedPartially = true;    // checks still ran on the recovered AST
  bool crashed = false;             // clang crashed: nothing of the TU is kept
  /// streamlint's own code failed on this TU (an exception, a crash outside
  /// clang's parse): a bug in streamlint, reported as such, never as
  /// "clang crashed". Nothing of the TU is kept unless said otherwise.
  bool internalError = false;
  /// clang's fatal error, "file:line:col: fatal error: ..." ("" if none): a
  /// missing include or too many errors. After it clang stops: the rest of
  /// the file is not parsed and templates are not instantiated, so findings
  /// after that point are likely missing (recoverable errors lose only the
  /// code around them).
  std::string fatalError;
};

/// Everything one run of the analyzer produced.
struct AnalysisResult {
  std::vector<Finding> findings;            // sorted with findingLess, deduplicated
  std::vector<TranslationUnitProblem> problems;
  unsigned translationUnits = 0;
  /// TUs not analyzed because they use no CUDA (no file was named and
  /// --all-translation-units was not given); see analyzer/driver/CudaUsageScan.
  unsigned skippedWithoutCuda = 0;
  /// TUs whose results came from the project index (docs/index.md).
  unsigned fromIndex = 0;
  /// Findings in headers outside the project, not reported (distinct
  /// findings; --third-party-headers reports them).
  unsigned hiddenThirdParty = 0;
  /// Notes for stderr: damaged index entries, interpolated commands, TUs of
  /// the whole-program context that could not be analyzed.
  std::vector<std::string> notes;
  /// Files only a probe trace names, outside the project: never read (their
  /// findings have no snippet and no NOLINT applies).
  std::vector<std::string> withheldFiles;
};

} // namespace streamlint

namespace streamlint {

/// What outputs say about a check (SARIF rules[], --list-checks, docs links).
struct RuleInfo {
  std::string id;
  std::string shortDescription;   // one line
  std::string fullDescription;    // a paragraph: what and why it costs
  std::string helpText;           // what to do instead
  std::string helpUri;            // docs/checks/<id>.md on the project site
  Severity defaultSeverity = Severity::Warning;
};

} // namespace streamlint
