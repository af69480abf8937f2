#pragma once
// Source text for outputs, suppressions and fingerprints: each file is read
// once, and byte columns (clang's) are converted to code points (SARIF's).

#include "llvm/ADT/StringRef.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace streamlint {

/// Reads each source file at most once and answers line and column questions.
class SourceTextCache {
public:
  /// Uses `text` for `path` instead of reading the disk (tests, unsaved buffers).
  void setContents(const std::string &path, std::string text);

  /// Never reads `path`: it is treated as unreadable (a file only a probe
  /// trace names, outside the project).
  void withhold(const std::string &path);

  /// False when the file cannot be read.
  bool readable(const std::string &path);

  /// Line `line` (1-based) without its line terminator; nullopt when the file
  /// cannot be read or has no such line.
  std::optional<llvm::StringRef> line(const std::string &path, unsigned line);

  /// Number of lines in the file (0 when unreadable).
  unsigned lineCount(const std::string &path);

  /// Converts a 1-based byte column into a 1-based Unicode code-point column.
  /// Columns past the end of the line count one per byte; an unreadable file
  /// leaves the column as it is.
  unsigned codePointColumn(const std::string &path, unsigned line,
                           unsigned byteColumn);

  /// 1-based line and byte column of a 0-based byte offset.
  std::optional<std::pair<unsigned, unsigned>>
  lineAndColumn(const std::string &path, unsigned offset);

private:
  struct File {
    bool readable = false;
    std::string text;
    std::vector<std::size_t> lineStarts; // byte offset of each line
  };
  File &load(const std::string &path);
  static void index(File &file);

  std::map<std::string, File> files_;
};

/// Code points in `bytes` (a UTF-8 prefix); invalid bytes count one each.
unsigned countCodePoints(llvm::StringRef bytes);

} // namespace streamlint
