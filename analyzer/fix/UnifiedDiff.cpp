// --fix-dry-run's unified diff, built from the edits themselves (no line
// matching needed): each edit changes the lines it touches; hunks get three
// lines of context and merge when their contexts would meet, as diff -u does.
#include "analyzer/fix/FixPlan.h"

#include <algorithm>

namespace streamlint::fix {
namespace {

constexpr size_t kContext = 3;

/// Lines of `text`, each with its '\n' (the last one may lack it).
std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    end = end == std::string::npos ? text.size() : end + 1;
    lines.push_back(text.substr(at, end - at));
    at = end;
  }
  return lines;
}

/// Old lines [first, first + oldLines.size()) become newLines.
struct Region {
  size_t first;
  std::vector<std::string> oldLines, newLines;
};

void emit(std::string &out, char prefix, const std::string &line) {
  out += prefix;
  out += line;
  if (line.empty() || line.back() != '\n')
    out += "\n\\ No newline at end of file\n";
}

std::string rangeText(size_t start, size_t count) {
  // diff -u names the line before an empty range.
  return std::to_string(count == 0 ? start : start + 1) + "," +
         std::to_string(count);
}

} // namespace

std::string unifiedDiff(const std::string &displayPath,
                        const std::string &original,
                        const std::vector<PlannedEdit> &edits) {
  std::vector<size_t> starts; // start offset of each line, then original.size()
  for (size_t at = 0; at < original.size();) {
    starts.push_back(at);
    size_t end = original.find('\n', at);
    at = end == std::string::npos ? original.size() : end + 1;
  }
  size_t lineCount = starts.size();
  starts.push_back(original.size());
  bool endsWithNewline = original.empty() || original.back() == '\n';
  auto lineOf = [&](size_t offset) -> size_t {
    if (offset >= original.size() && endsWithNewline)
      return lineCount; // past the last line: an append
    return std::upper_bound(starts.begin(), starts.begin() + lineCount, offset) -
           starts.begin() - 1;
  };

  // Edits touching the same lines form one region.
  std::vector<std::pair<size_t, size_t>> spans; // [first, last] lines
  std::vector<std::vector<const PlannedEdit *>> groups;
  for (const PlannedEdit &planned : edits) {
    size_t first = lineOf(planned.edit.offset);
    size_t last = planned.edit.length == 0
                      ? first
                      : lineOf(planned.edit.offset + planned.edit.length - 1);
    if (!spans.empty() && first <= spans.back().second) {
      spans.back().second = std::max(spans.back().second, last);
      groups.back().push_back(&planned);
    } else {
      spans.push_back({first, last});
      groups.push_back({&planned});
    }
  }
  std::vector<Region> regions;
  for (size_t r = 0; r < spans.size(); ++r) {
    auto [first, last] = spans[r];
    size_t begin = starts[first];
    size_t end = last + 1 <= lineCount ? starts[last + 1] : original.size();
    std::string before = original.substr(begin, end - begin);
    std::vector<PlannedEdit> local;
    for (const PlannedEdit *planned : groups[r]) {
      local.push_back(*planned);
      local.back().edit.offset -= begin;
    }
    regions.push_back({first, splitLines(before),
                       splitLines(applyEdits(before, local))});
  }

  std::vector<std::string> lines = splitLines(original);
  std::string out = "--- a/" + displayPath + "\n+++ b/" + displayPath + "\n";
  long delta = 0; // new line number - old line number before the hunk
  for (size_t r = 0; r < regions.size();) {
    size_t start = regions[r].first >= kContext ? regions[r].first - kContext : 0;
    std::string body;
    size_t oldCount = 0, newCount = 0, at = start;
    long hunkDelta = 0;
    size_t k = r;
    for (; k < regions.size(); ++k) {
      const Region &region = regions[k];
      if (k > r && region.first - at > 2 * kContext)
        break;
      for (; at < region.first; ++at, ++oldCount, ++newCount)
        emit(body, ' ', lines[at]);
      for (const auto &line : region.oldLines)
        emit(body, '-', line);
      for (const auto &line : region.newLines)
        emit(body, '+', line);
      oldCount += region.oldLines.size();
      newCount += region.newLines.size();
      hunkDelta += long(region.newLines.size()) - long(region.oldLines.size());
      at = region.first + region.oldLines.size();
    }
    for (size_t end = std::min(lineCount, at + kContext); at < end;
         ++at, ++oldCount, ++newCount)
      emit(body, ' ', lines[at]);
    out += "@@ -" + rangeText(start, oldCount) + " +" +
           rangeText(start + delta, newCount) + " @@\n" + body;
    delta += hunkDelta;
    r = k;
  }
  return out;
}

} // namespace streamlint::fix
