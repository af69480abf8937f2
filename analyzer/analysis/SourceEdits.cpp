#include "analyzer/analysis/SourceEdits.h"

namespace streamlint {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t'; }

/// The file, the offset of `location` and the offset its line starts at.
struct LinePosition {
  clang::FileID file;
  unsigned offset, lineStart;
  llvm::StringRef buffer;
};

LinePosition linePosition(clang::SourceLocation location, const clang::SourceManager &sm) {
  auto [file, offset] = sm.getDecomposedLoc(sm.getExpansionLoc(location));
  llvm::StringRef buffer = sm.getBufferData(file);
  unsigned lineStart = offset;
  while (lineStart > 0 && buffer[lineStart - 1] != '\n')
    --lineStart;
  return {file, offset, lineStart, buffer};
}

} // namespace

std::string lineIndentation(clang::SourceLocation location, const clang::SourceManager &sm) {
  LinePosition at = linePosition(location, sm);
  return at.buffer.substr(at.lineStart).take_while(isBlank).str();
}

bool beginsLine(clang::SourceLocation location, const clang::SourceManager &sm) {
  LinePosition at = linePosition(location, sm);
  return llvm::all_of(at.buffer.slice(at.lineStart, at.offset), isBlank);
}

clang::SourceLocation lineBegin(clang::SourceLocation location, const clang::SourceManager &sm) {
  LinePosition at = linePosition(location, sm);
  return sm.getComposedLoc(at.file, at.lineStart);
}

bool FixEdits::add(clang::CharSourceRange range, llvm::StringRef replacement) {
  std::optional<TextEdit> edit = context_.edit(range, replacement);
  if (edit)
    fix_.edits.push_back(std::move(*edit));
  return edit.has_value();
}

} // namespace streamlint
