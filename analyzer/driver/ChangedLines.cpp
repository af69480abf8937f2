#include "analyzer/driver/ChangedLines.h"
#include "analyzer/InputFile.h"
#include "analyzer/support/Paths.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <algorithm>
#include <optional>

namespace streamlint {
namespace {

/// A pull request's diff is far smaller.
constexpr InputLimits kDiffLimits{1024 * kMiB, 0};

llvm::Error diffError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// A diff header's path: up to a tab (diff -u's timestamp), unquoted.
std::string headerPath(llvm::StringRef line) {
  line = line.drop_front(4).split('\t').first.rtrim();
  if (line.size() >= 2 && line.front() == '"' && line.back() == '"')
    line = line.drop_front().drop_back(); // git quotes unusual names
  return line.str();
}

/// Runs git with `arguments` in `directory`; its stdout, or an error with
/// its stderr.
llvm::Expected<std::string> runGit(llvm::ArrayRef<llvm::StringRef> arguments,
                                   llvm::StringRef directory) {
  auto git = llvm::sys::findProgramByName("git");
  if (!git)
    return diffError("git not found on PATH");
  llvm::SmallString<128> out, err;
  if (llvm::sys::fs::createTemporaryFile("streamlint-git", "out", out) ||
      llvm::sys::fs::createTemporaryFile("streamlint-git", "err", err))
    return diffError("cannot create a temporary file for git's output");
  std::vector<llvm::StringRef> argv{*git, "-C", directory};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  std::optional<llvm::StringRef> redirects[] = {std::nullopt, llvm::StringRef(out),
                                                llvm::StringRef(err)};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(*git, argv, std::nullopt, redirects, 0, 0, &message);
  auto outText = llvm::MemoryBuffer::getFile(out);
  auto errText = llvm::MemoryBuffer::getFile(err);
  llvm::sys::fs::remove(out);
  llvm::sys::fs::remove(err);
  if (status != 0 || !outText)
    return diffError("git " + llvm::join(arguments, " ") + ": " +
                     (errText && !(*errText)->getBuffer().trim().empty()
                          ? (*errText)->getBuffer().trim().str()
                          : message.empty() ? "exit " + std::to_string(status) : message));
  return (*outText)->getBuffer().str();
}

} // namespace

std::string gitTopLevel(llvm::StringRef directory) {
  auto top = runGit({"rev-parse", "--show-toplevel"}, directory);
  if (!top) {
    llvm::consumeError(top.takeError());
    return "";
  }
  return llvm::StringRef(*top).trim().str();
}

llvm::Expected<ChangedLines> ChangedLines::fromUnifiedDiff(llvm::StringRef diff,
                                                          llvm::StringRef root,
                                                          llvm::StringRef origin) {
  ChangedLines changed;
  llvm::SmallVector<llvm::StringRef, 0> lines;
  diff.split(lines, '\n');
  std::string oldPath;
  std::vector<unsigned> *current = nullptr; // null for a deleted file
  bool inFile = false;                       // a '+++' line was read
  unsigned newLine = 0, remainingNew = 0, remainingOld = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    llvm::StringRef line = lines[i].rtrim('\r');
    if (remainingNew || remainingOld) { // inside a hunk
      char kind = line.empty() ? ' ' : line.front();
      if (kind == '+') {
        if (current)
          current->push_back(newLine);
        ++newLine, --remainingNew;
      } else if (kind == '-') {
        --remainingOld;
      } else if (kind == ' ') {
        ++newLine, --remainingNew, --remainingOld;
      } else if (kind != '\\') {
        return diffError(origin + ":" + llvm::Twine(i + 1) +
                         ": hunk shorter than its @@ header says");
      }
      continue;
    }
    if (line.starts_with("--- ")) {
      oldPath = headerPath(line);
    } else if (line.starts_with("+++ ")) {
      std::string path = headerPath(line);
      current = nullptr;
      inFile = true;
      if (path == "/dev/null")
        continue;
      if (llvm::StringRef(path).starts_with("b/") &&
          (llvm::StringRef(oldPath).starts_with("a/") || oldPath == "/dev/null"))
        path = path.substr(2);
      llvm::SmallString<256> full(root);
      if (llvm::sys::path::is_absolute(path))
        full = path;
      else
        llvm::sys::path::append(full, path);
      current = &changed.lines_[realPathOf(std::string(full))];
    } else if (line.starts_with("@@ ")) {
      // @@ -a[,b] +c[,d] @@
      llvm::SmallVector<llvm::StringRef, 4> parts;
      line.split(parts, ' ');
      unsigned oldStart = 0, oldCount = 1, newCount = 1;
      auto range = [](llvm::StringRef text, unsigned &start, unsigned &count) {
        auto [first, second] = text.drop_front().split(',');
        return !first.getAsInteger(10, start) &&
               (second.empty() || !second.getAsInteger(10, count));
      };
      if (parts.size() < 4 || !parts[1].starts_with("-") || !parts[2].starts_with("+") ||
          !range(parts[1], oldStart, oldCount) || !range(parts[2], newLine, newCount))
        return diffError(origin + ":" + llvm::Twine(i + 1) + ": malformed hunk header '" +
                         line + "'");
      if (!inFile)
        return diffError(origin + ":" + llvm::Twine(i + 1) +
                         ": hunk before any '+++ file' line");
      remainingNew = newCount;
      remainingOld = oldCount;
    }
  }
  if (remainingNew || remainingOld)
    return diffError(origin + ": ends inside a hunk (truncated?)");
  for (auto &[file, numbers] : changed.lines_)
    std::sort(numbers.begin(), numbers.end());
  return changed;
}

llvm::Expected<ChangedLines> ChangedLines::sinceRevision(llvm::StringRef revision,
                                                        llvm::StringRef directory) {
  std::string top = gitTopLevel(directory);
  if (top.empty())
    return diffError("--diff-base: " + directory + " is not in a git checkout");
  auto diff = runGit({"diff", "-U0", "--no-color", "--no-ext-diff", "--no-renames",
                      "--src-prefix=a/", "--dst-prefix=b/", revision, "--"},
                     directory);
  if (!diff)
    return diffError("--diff-base '" + revision + "': " + llvm::toString(diff.takeError()));
  return fromUnifiedDiff(*diff, top, "git diff " + revision.str());
}

llvm::Expected<ChangedLines> ChangedLines::fromDiffFile(llvm::StringRef path) {
  std::string text, error;
  if (path == "-") {
    auto input = llvm::MemoryBuffer::getSTDIN();
    if (!input)
      return diffError("--diff-file -: cannot read standard input: " +
                       input.getError().message());
    text = (*input)->getBuffer().str();
    if (!checkInputText(text, kDiffLimits, error))
      return diffError("--diff-file -: " + error);
  } else if (!readInputFile(path.str(), kDiffLimits, text, error)) {
    return diffError("--diff-file " + path + ": " + error);
  }
  llvm::SmallString<256> cwd;
  llvm::sys::fs::current_path(cwd);
  std::string root = gitTopLevel(cwd);
  return fromUnifiedDiff(text, root.empty() ? std::string(cwd) : root,
                         path == "-" ? "--diff-file (stdin)" : path);
}

bool ChangedLines::touches(const Finding &finding) const {
  auto found = lines_.find(realPathOf(finding.location.file));
  if (found == lines_.end())
    return false;
  unsigned first = finding.location.line;
  unsigned last = std::max(first, finding.end.line);
  auto at = std::lower_bound(found->second.begin(), found->second.end(), first);
  return at != found->second.end() && *at <= last;
}

} // namespace streamlint
