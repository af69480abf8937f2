// --fix and --fix-dry-run: plan, then write each changed file atomically (or
// print the diff). A file that cannot be written is reported and left as it was.
#include "analyzer/fix/FixApplier.h"
#include "analyzer/fix/FixPlan.h"

#include <set>

namespace streamlint {

FixReport applyFixes(const std::vector<Finding> &findings,
                     const FixOptions &options) {
  using namespace fix;
  FixPlan plan = planFixes(findings, options.projectRoot);
  std::string root = normalizedRoot(options.projectRoot);
  FixReport report;
  report.dryRun = options.dryRun;
  report.skipped = std::move(plan.skipped);
  std::set<std::string> failed;
  for (const auto &[file, change] : plan.files) {
    if (options.dryRun) {
      report.diff += unifiedDiff(relativeTo(file, root), change.original,
                                 change.edits);
    } else if (llvm::Error error = writeFileAtomically(
                   file, applyEdits(change.original, change.edits))) {
      report.errors.push_back(llvm::toString(std::move(error)));
      failed.insert(file);
      continue;
    }
    report.changedFiles.push_back(file);
  }
  // A fix counts as applied only if every file it edits was written.
  for (const PlannedFix &planned : plan.fixes) {
    bool written = true;
    for (const TextEdit &edit : findings[planned.finding].fixes[planned.fix].edits)
      written &= !failed.count(normalizePath(edit.file));
    report.appliedFixes += written;
  }
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
      << report.appliedFixes << " fix(es) in " << report.changedFiles.size()
      << " file(s)";
  if (!report.skipped.empty())
    out << "; " << report.skipped.size() << " skipped";
  out << "\n";
}

} // namespace streamlint
