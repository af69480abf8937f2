#include "analyzer/support/SourceTextCache.h"
#include "analyzer/InputFile.h"

#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

namespace streamlint {

unsigned countCodePoints(llvm::StringRef bytes) {
  unsigned count = 0;
  for (unsigned char c : bytes)
    if ((c & 0xC0) != 0x80) // every byte but a continuation byte starts one
      ++count;
  return count;
}

void SourceTextCache::setContents(const std::string &path, std::string text) {
  File &file = files_[path];
  file.readable = true;
  file.text = std::move(text);
  index(file);
}

void SourceTextCache::index(File &file) {
  file.lineStarts.assign(1, 0);
  for (std::size_t i = 0; i < file.text.size(); ++i)
    if (file.text[i] == '\n')
      file.lineStarts.push_back(i + 1);
  // A trailing newline ends the last line; it does not start another.
  if (file.lineStarts.size() > 1 && file.lineStarts.back() == file.text.size())
    file.lineStarts.pop_back();
}

SourceTextCache::File &SourceTextCache::load(const std::string &path) {
  auto it = files_.find(path);
  if (it != files_.end())
    return it->second;
  File &file = files_[path];
  // Regular files only: a path naming a FIFO or a device shows no source.
  std::string error;
  if (readInputFile(path, kSourceFileLimits, file.text, error)) {
    file.readable = true;
    index(file);
  }
  return file;
}

void SourceTextCache::withhold(const std::string &path) { files_[path] = File(); }

bool SourceTextCache::readable(const std::string &path) {
  return load(path).readable;
}

unsigned SourceTextCache::lineCount(const std::string &path) {
  File &file = load(path);
  return file.readable && !file.text.empty() ? file.lineStarts.size() : 0;
}

std::optional<llvm::StringRef> SourceTextCache::line(const std::string &path,
                                                     unsigned line) {
  File &file = load(path);
  if (!file.readable || line == 0 || line > file.lineStarts.size() ||
      (file.text.empty()))
    return std::nullopt;
  std::size_t begin = file.lineStarts[line - 1];
  std::size_t end = line < file.lineStarts.size() ? file.lineStarts[line] - 1
                                                  : file.text.size();
  llvm::StringRef text(file.text.data() + begin, end - begin);
  if (text.ends_with("\n"))
    text = text.drop_back();
  if (text.ends_with("\r"))
    text = text.drop_back();
  return text;
}

unsigned SourceTextCache::codePointColumn(const std::string &path,
                                          unsigned line, unsigned byteColumn) {
  if (byteColumn == 0)
    return 0;
  std::optional<llvm::StringRef> text = this->line(path, line);
  if (!text)
    return byteColumn;
  unsigned before = byteColumn - 1; // bytes before the column
  if (before <= text->size())
    return countCodePoints(text->take_front(before)) + 1;
  return countCodePoints(*text) + (before - text->size()) + 1;
}

std::optional<std::pair<unsigned, unsigned>>
SourceTextCache::lineAndColumn(const std::string &path, unsigned offset) {
  File &file = load(path);
  if (!file.readable || offset > file.text.size())
    return std::nullopt;
  auto next = std::upper_bound(file.lineStarts.begin(), file.lineStarts.end(),
                               static_cast<std::size_t>(offset));
  unsigned lineIndex = static_cast<unsigned>(next - file.lineStarts.begin());
  return std::make_pair(lineIndex,
                        offset - static_cast<unsigned>(
                                     file.lineStarts[lineIndex - 1]) + 1);
}

} // namespace streamlint
