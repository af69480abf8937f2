// --fix and --fix-dry-run: plan, then write each changed file atomically (or
// print the diff). A file that cannot be written, changed since the analysis
// or became read-only is reported and left as it was.
#include "analyzer/fix/FixApplier.h"
#include "analyzer/fix/FixPlan.h"

#include <map>
#include <set>

namespace streamlint {

const char *skipReasonName(SkipReason reason) {
  switch (reason) {
  case SkipReason::Conflict: return "conflicting";
  case SkipReason::OutsideRoot: return "outside the project root";
  case SkipReason::SystemHeader: return "in a system header";
  case SkipReason::Changed: return "changed since analysis";
  case SkipReason::ReadOnly: return "read-only";
  case SkipReason::HardLinked: return "hard-linked";
  case SkipReason::Unreadable: return "unreadable";
  case SkipReason::WriteFailed: return "write failed";
  }
  return "skipped";
}

namespace {

/// Every planned fix that edits `file` becomes a skipped fix of `kind`.
void skipFixesOf(const fix::FixPlan &plan, const std::vector<Finding> &findings,
                 const std::string &file, SkipReason kind, const std::string &why,
                 FixReport &report) {
  for (const fix::PlannedFix &planned : plan.fixes) {
    if (!llvm::is_contained(planned.files, file))
      continue;
    const Finding &finding = findings[planned.finding];
    report.skipped.push_back({finding.checkId, finding.location,
                              finding.fixes[planned.fix].description, why, kind});
  }
}

/// "src/a.cu:12:3: [alloc-in-loop] allocate 'd' once ...".
std::string suggestionLine(const std::vector<Finding> &findings,
                           const fix::PlannedFix &planned, const std::string &root) {
  const Finding &finding = findings[planned.finding];
  return fix::relativeTo(finding.location.file, root) + ":" +
         std::to_string(finding.location.line) + ":" +
         std::to_string(finding.location.column) + ": [" + finding.checkId + "] " +
         finding.fixes[planned.fix].description;
}

} // namespace

FixReport applyFixes(const std::vector<Finding> &findings,
                     const FixOptions &options) {
  using namespace fix;
  FixPlan plan = planFixes(findings, options.projectRoot, options.applySuggestions);
  std::string root = normalizedRoot(options.projectRoot);
  FixReport report;
  report.dryRun = options.dryRun;
  report.skipped = std::move(plan.skipped);
  std::set<std::string> notWritten;
  for (const auto &[file, change] : plan.files) {
    if (options.dryRun) {
      report.diff += unifiedDiff(relativeTo(change.namedPath, root),
                                 change.original, change.edits);
      report.changedFiles.push_back(change.namedPath);
      continue;
    }
    auto outcome =
        replaceIfUnchanged(file, change.original, applyEdits(change.original, change.edits));
    if (!outcome) {
      std::string why = llvm::toString(outcome.takeError());
      report.errors.push_back(why);
      skipFixesOf(plan, findings, file, SkipReason::WriteFailed, why, report);
      notWritten.insert(file);
      continue;
    }
    if (*outcome == ReplaceOutcome::Changed) {
      skipFixesOf(plan, findings, file, SkipReason::Changed,
                  change.namedPath + " changed after it was analyzed (another "
                                     "run or an editor wrote it); left alone",
                  report);
      notWritten.insert(file);
      continue;
    }
    if (*outcome == ReplaceOutcome::ReadOnly) {
      skipFixesOf(plan, findings, file, SkipReason::ReadOnly,
                  change.namedPath + " became read-only; left alone", report);
      notWritten.insert(file);
      continue;
    }
    if (*outcome == ReplaceOutcome::HardLinked) {
      skipFixesOf(plan, findings, file, SkipReason::HardLinked,
                  change.namedPath + " " + hardLinkReason(file), report);
      notWritten.insert(file);
      continue;
    }
    report.changedFiles.push_back(change.namedPath);
  }
  llvm::sort(report.changedFiles);
  // A fix counts as applied only if every file it edits was written.
  for (const PlannedFix &planned : plan.fixes) {
    if (llvm::any_of(planned.files,
                     [&](const std::string &file) { return notWritten.count(file); }))
      continue;
    ++report.appliedFixes;
    if (planned.suggestion)
      report.appliedSuggestions.push_back(suggestionLine(findings, planned, root));
  }
  if (options.dryRun && !report.diff.empty())
    report.diff = suggestionsHeader(report.appliedSuggestions) + report.diff;
  return report;
}

void printFixReport(const FixReport &report, llvm::raw_ostream &out) {
  for (const SkippedFix &skipped : report.skipped)
    out << "streamlint: fix not applied for [" << skipped.checkId << "] at "
        << skipped.location.file << ":" << skipped.location.line << ":"
        << skipped.location.column << ": " << skipped.reason << "\n";
  for (const std::string &error : report.errors)
    out << "streamlint: error: " << error << "\n";
  out << "streamlint: " << (report.dryRun ? "would apply " : "applied ")
      << report.appliedFixes << " fix(es)";
  if (!report.appliedSuggestions.empty())
    out << " (" << report.appliedSuggestions.size()
        << " of them suggestion(s), applied because of --fix-notes)";
  out << " in " << report.changedFiles.size() << " file(s)";
  if (!report.skipped.empty()) {
    std::map<std::string, unsigned> byReason;
    for (const SkippedFix &skipped : report.skipped)
      ++byReason[skipReasonName(skipped.kind)];
    out << "; " << report.skipped.size() << " skipped (";
    bool first = true;
    for (const auto &[reason, count] : byReason) {
      out << (first ? "" : ", ") << count << " " << reason;
      first = false;
    }
    out << ")";
  }
  out << "\n";
}

} // namespace streamlint
