#include "analyzer/fix/FixPrerequisites.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

namespace streamlint {
namespace {

bool sameEdit(const TextEdit &a, const TextEdit &b) {
  return a.file == b.file && a.offset == b.offset && a.length == b.length &&
         a.replacement == b.replacement;
}

bool hasEdit(const FixIt &fix, const TextEdit &edit) {
  return llvm::any_of(fix.edits, [&](const TextEdit &e) { return sameEdit(e, edit); });
}

std::string where(const TextEdit &edit) {
  return llvm::sys::path::filename(edit.file).str() + ":" + std::to_string(edit.begin.line);
}

/// The reason `prerequisite` of `fix` is not met by `findings`; "" if it is.
std::string unmet(const FixIt &fix, const FixPrerequisite &prerequisite,
                  const std::vector<Finding> &findings,
                  llvm::function_ref<std::string(const FixPrerequisite &)> whyAbsent) {
  std::string relies = "it relies on " + prerequisite.checkId + "'s fix of " +
                       (prerequisite.what.empty() ? "line " + where(prerequisite.edit)
                                                  : prerequisite.what + " (" +
                                                        where(prerequisite.edit) + ")");
  std::string problem;
  for (const Finding &finding : findings) {
    if (finding.checkId != prerequisite.checkId)
      continue;
    for (const FixIt &other : finding.fixes) {
      // Never itself: it carries the edit too.
      if (&other == &fix || !hasEdit(other, prerequisite.edit))
        continue;
      if (!other.applicable) {
        std::string why = other.description;
        size_t at = why.find("not applied by --fix: ");
        problem = ", which is a suggestion in this run" +
                  (at == std::string::npos ? std::string()
                                           : ": " + why.substr(at + 22));
        continue;
      }
      // Its every edit must be one this fix makes too: otherwise --fix could
      // apply this fix without the rest of that one.
      if (!llvm::all_of(other.edits, [&](const TextEdit &e) { return hasEdit(fix, e); })) {
        problem = ", which also makes edits this fix does not carry";
        continue;
      }
      return "";
    }
  }
  return relies + (problem.empty() ? ", and " + whyAbsent(prerequisite) : problem);
}

} // namespace

void settleFixPrerequisites(std::vector<Finding> &findings,
                            llvm::function_ref<std::string(const FixPrerequisite &)> whyAbsent) {
  for (bool changed = true; changed;) {
    changed = false;
    for (Finding &finding : findings)
      for (FixIt &fix : finding.fixes) {
        if (!fix.applicable || fix.prerequisites.empty())
          continue;
        for (const FixPrerequisite &prerequisite : fix.prerequisites) {
          std::string why = unmet(fix, prerequisite, findings, whyAbsent);
          if (why.empty())
            continue;
          fix.applicable = false;
          fix.description += "; not applied by --fix: " + why;
          changed = true;
          break;
        }
      }
  }
}

} // namespace streamlint
