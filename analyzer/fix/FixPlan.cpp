// Choosing the fixes to apply: inside the project, matching the files on
// disk, not overlapping each other. Identical edits (one header fixed from two
// TUs) are one edit; a fix that overlaps an earlier one is skipped whole, as
// clang-tidy does, so no file ever gets half of a fix.
#include "analyzer/fix/FixPlan.h"
#include "analyzer/fix/ContentDigest.h"
#include "analyzer/support/Paths.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"

#include <optional>
#include <tuple>

namespace streamlint::fix {
namespace {


bool isInside(llvm::StringRef file, llvm::StringRef root) {
  return root == "/" || pathUnderBase(file.str(), root.str());
}

// Headers of the system and the CUDA toolkit are never edited, even when the
// project root contains them (a root of /).
bool isSystemOrToolkit(llvm::StringRef file) {
  static constexpr llvm::StringRef kPrefixes[] = {
      "/usr/include/", "/usr/lib/", "/usr/local/include/", "/usr/local/cuda",
      "/opt/cuda", "/opt/nvidia/"};
  if (llvm::any_of(kPrefixes, [&](llvm::StringRef p) { return file.starts_with(p); }))
    return true;
  auto cudaPath = llvm::sys::Process::GetEnv("CUDA_PATH");
  return cudaPath && !cudaPath->empty() && isInside(file, absolutePath(*cudaPath));
}

std::string range(const TextEdit &edit) {
  return edit.file + " bytes " + std::to_string(edit.offset) + "-" +
         std::to_string(edit.offset + edit.length);
}

bool identical(const TextEdit &a, const TextEdit &b) {
  return a.offset == b.offset && a.length == b.length &&
         a.replacement == b.replacement;
}

/// Two different edits that cannot both apply. Insertions at the boundary of
/// a replacement can; two different insertions at one offset cannot (their
/// order would be a guess).
bool overlaps(const TextEdit &a, const TextEdit &b) {
  if (identical(a, b))
    return false;
  unsigned aEnd = a.offset + a.length, bEnd = b.offset + b.length;
  if (a.length == 0 && b.length == 0)
    return a.offset == b.offset;
  if (a.length == 0)
    return b.offset < a.offset && a.offset < bEnd;
  if (b.length == 0)
    return a.offset < b.offset && b.offset < aEnd;
  return a.offset < bEnd && b.offset < aEnd;
}

/// Byte offset of a 1-based line and byte column, if inside `text`.
std::optional<size_t> offsetOf(llvm::StringRef text, unsigned line,
                               unsigned column) {
  size_t start = 0;
  for (unsigned l = 1; l < line; ++l) {
    start = text.find('\n', start);
    if (start == llvm::StringRef::npos)
      return std::nullopt;
    ++start;
  }
  return start + column - 1;
}

class Planner {
public:
  Planner(const std::vector<Finding> &findings, std::string root, bool applySuggestions)
      : findings(findings), root(std::move(root)), realRoot(realPathOf(this->root)),
        applySuggestions(applySuggestions) {}

  FixPlan run() {
    for (size_t i = 0; i < findings.size(); ++i) {
      const std::vector<FixIt> &fixes = findings[i].fixes;
      for (size_t j = 0; j < fixes.size(); ++j)
        if (fixes[j].applicable)
          consider(i, j);
      if (applySuggestions && llvm::none_of(fixes, [](const FixIt &f) { return f.applicable; }))
        for (size_t j = 0; j < fixes.size(); ++j)
          if (!fixes[j].edits.empty()) {
            consider(i, j, /*suggestion=*/true);
            break;
          }
    }
    for (auto &[file, change] : plan.files)
      llvm::sort(change.edits, [](const PlannedEdit &a, const PlannedEdit &b) {
        return std::tie(a.edit.offset, a.edit.length) <
               std::tie(b.edit.offset, b.edit.length);
      });
    return std::move(plan);
  }

private:
  void skip(size_t i, size_t j, SkipReason kind, std::string reason) {
    const Finding &finding = findings[i];
    plan.skipped.push_back({finding.checkId, finding.location,
                            finding.fixes[j].description, std::move(reason), kind});
  }

  /// The file's contents, read once; nullptr if unreadable.
  const std::string *contents(const std::string &file) {
    auto found = cache.find(file);
    if (found == cache.end()) {
      std::optional<std::string> text;
      if (auto buffer = llvm::MemoryBuffer::getFile(file, /*IsText=*/false,
                                                    /*RequiresNullTerminator=*/false))
        text = (*buffer)->getBuffer().str();
      found = cache.emplace(file, std::move(text)).first;
    }
    return found->second ? &*found->second : nullptr;
  }

  /// A problem that keeps a fix from being applied.
  struct Problem {
    SkipReason kind;
    std::string why;
  };

  /// Why `edit` cannot apply to the file as it is now; nullopt if it can.
  /// `real` is the file with symbolic links resolved: a link inside the root
  /// may point elsewhere (Bazel's execroot, vendored trees), and it is the
  /// target that gets the edit.
  std::optional<Problem> problemWith(const TextEdit &edit, const std::string &real) {
    if (!isInside(edit.file, root) && !isInside(real, root) &&
        !isInside(real, realRoot))
      return Problem{SkipReason::OutsideRoot,
                     edit.file + " is outside the project root " + root + " (set it with --fix-root)"};
    if (isSystemOrToolkit(edit.file) || isSystemOrToolkit(real))
      return Problem{SkipReason::SystemHeader,
                     edit.file + " is a system or CUDA toolkit header"};
    const std::string *text = contents(real);
    if (!text)
      return Problem{SkipReason::Unreadable, edit.file + " cannot be read"};
    if (std::string why = readOnlyReason(real); !why.empty())
      return Problem{SkipReason::ReadOnly, edit.file + " is " + why + "; left alone"};
    if (std::string why = hardLinkReason(real); !why.empty())
      return Problem{SkipReason::HardLinked, edit.file + " " + why};
    if (!edit.fileDigest.empty() && digestOf(real) != edit.fileDigest)
      return Problem{SkipReason::Changed,
                     edit.file + " changed since it was analyzed (its content "
                                 "hash differs); left alone"};
    if (size_t(edit.offset) + edit.length > text->size())
      return Problem{SkipReason::Changed,
                     range(edit) + " is past the end of the file (" +
                         std::to_string(text->size()) +
                         " bytes): it changed since the analysis"};
    if (edit.begin.line > 0) {
      auto expected = offsetOf(*text, edit.begin.line, edit.begin.column);
      if (!expected || *expected != edit.offset)
        return Problem{SkipReason::Changed,
                       edit.file + ":" + std::to_string(edit.begin.line) + ":" +
                           std::to_string(edit.begin.column) +
                           " is no longer at byte " + std::to_string(edit.offset) +
                           ": the file changed since the analysis"};
    }
    return std::nullopt;
  }

  const std::string &digestOf(const std::string &real) {
    std::string &digest = digests[real];
    if (digest.empty())
      digest = contentDigest(*contents(real));
    return digest;
  }

  const std::string &realOf(const std::string &file) {
    auto found = reals.find(file);
    if (found == reals.end())
      found = reals.emplace(file, realPathOf(file)).first;
    return found->second;
  }

  void consider(size_t i, size_t j, bool suggestion = false) {
    std::vector<TextEdit> edits = findings[i].fixes[j].edits;
    std::vector<std::string> realFiles; // parallel to edits
    for (TextEdit &edit : edits) {
      edit.file = absolutePath(edit.file);
      realFiles.push_back(realOf(edit.file));
      if (std::optional<Problem> problem = problemWith(edit, realFiles.back()))
        return skip(i, j, problem->kind, problem->why);
    }
    for (size_t a = 0; a < edits.size(); ++a)
      for (size_t b = a + 1; b < edits.size(); ++b)
        if (realFiles[a] == realFiles[b] && overlaps(edits[a], edits[b]))
          return skip(i, j, SkipReason::Conflict,
                      "its own edits overlap at " + range(edits[a]));
    for (size_t e = 0; e < edits.size(); ++e) {
      const TextEdit &edit = edits[e];
      auto change = plan.files.find(realFiles[e]);
      if (change == plan.files.end())
        continue;
      for (const PlannedEdit &planned : change->second.edits) {
        if (!overlaps(edit, planned.edit))
          continue;
        const Finding &other = findings[planned.findings.front()];
        return skip(i, j, SkipReason::Conflict,
                    "its edit of " + range(edit) + " overlaps the fix of [" +
                        other.checkId + "] at " + other.location.file + ":" +
                        std::to_string(other.location.line) + ":" +
                        std::to_string(other.location.column) + " (" +
                        range(planned.edit) + ")");
      }
    }
    PlannedFix accepted{i, j, {}, suggestion};
    for (size_t e = 0; e < edits.size(); ++e) {
      const TextEdit &edit = edits[e];
      auto &change = plan.files[realFiles[e]];
      if (change.edits.empty()) {
        change.original = *contents(realFiles[e]);
        change.namedPath = edit.file;
      }
      auto same = llvm::find_if(change.edits, [&](const PlannedEdit &p) {
        return identical(p.edit, edit);
      });
      if (same != change.edits.end())
        same->findings.push_back(i); // a duplicate: merged, applied once
      else
        change.edits.push_back({edit, {i}});
      if (!llvm::is_contained(accepted.files, realFiles[e]))
        accepted.files.push_back(realFiles[e]);
    }
    plan.fixes.push_back(std::move(accepted));
  }

  const std::vector<Finding> &findings;
  std::string root;
  std::string realRoot; // the root with symbolic links resolved
  bool applySuggestions;
  FixPlan plan;
  std::map<std::string, std::optional<std::string>> cache; // by real path
  std::map<std::string, std::string> digests;                 // by real path
  std::map<std::string, std::string> reals;                   // named -> real
};

} // namespace

std::string normalizedRoot(const std::string &projectRoot) {
  std::string root = absolutePath(projectRoot.empty() ? "." : projectRoot);
  while (root.size() > 1 && root.back() == '/')
    root.pop_back();
  return root;
}

std::string relativeTo(const std::string &file, const std::string &root) {
  return root == "/" ? file : displayPath(file, root);
}

FixPlan planFixes(const std::vector<Finding> &findings,
                  const std::string &projectRoot, bool applySuggestions) {
  return Planner(findings, normalizedRoot(projectRoot), applySuggestions).run();
}

std::string suggestionsHeader(const std::vector<std::string> &appliedSuggestions) {
  if (appliedSuggestions.empty())
    return "";
  std::string header = "# streamlint --fix-notes: this diff also applies " +
                       std::to_string(appliedSuggestions.size()) +
                       " suggested fix(es) that --fix alone does not apply; review them:\n";
  for (const std::string &line : appliedSuggestions)
    header += "#   " + line + "\n";
  return header;
}

std::string applyEdits(const std::string &original,
                       const std::vector<PlannedEdit> &edits) {
  std::string result;
  result.reserve(original.size());
  size_t at = 0;
  for (const PlannedEdit &planned : edits) {
    result.append(original, at, planned.edit.offset - at);
    result += planned.edit.replacement;
    at = planned.edit.offset + planned.edit.length;
  }
  result.append(original, at, std::string::npos);
  return result;
}

} // namespace streamlint::fix
