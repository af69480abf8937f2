// --export-fixes: the YAML clang-tidy writes and clang-apply-replacements
// reads (0-based byte offsets). Only the fixes --fix would apply are written,
// so both paths produce the same bytes.
#include "analyzer/fix/FixPlan.h"
#include "analyzer/OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

namespace streamlint::fix {
namespace {

/// A YAML double-quoted scalar: exact for any bytes of source text.
std::string quoted(llvm::StringRef text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
    case '"': out += "\\\""; break;
    case '\\': out += "\\\\"; break;
    case '\n': out += "\\n"; break;
    case '\t': out += "\\t"; break;
    case '\r': out += "\\r"; break;
    default:
      if (c < 0x20 || c == 0x7f) {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
        out += buffer;
      } else {
        out += char(c);
      }
    }
  }
  return out + "\"";
}

/// 0-based byte offset of a finding's 1-based line/column; 0 if unknown.
unsigned fileOffset(const SourcePoint &point) {
  auto buffer = llvm::MemoryBuffer::getFile(point.file);
  if (!buffer || point.line == 0)
    return 0;
  llvm::StringRef text = (*buffer)->getBuffer();
  size_t start = 0;
  for (unsigned line = 1; line < point.line && start != llvm::StringRef::npos; ++line) {
    start = text.find('\n', start);
    if (start != llvm::StringRef::npos)
      ++start;
  }
  if (start == llvm::StringRef::npos)
    return 0;
  return unsigned(start + (point.column ? point.column - 1 : 0));
}

const char *levelName(Severity severity) {
  switch (severity) {
  case Severity::Error: return "Error";
  case Severity::Warning: return "Warning";
  case Severity::Note: return "Remark";
  }
  return "Warning";
}

} // namespace
} // namespace streamlint::fix

namespace streamlint {

llvm::Error exportFixes(const std::vector<Finding> &findings,
                        const FixOptions &options, const std::string &yamlPath) {
  using namespace fix;
  FixPlan plan = planFixes(findings, options.projectRoot, options.applySuggestions);
  std::map<size_t, std::vector<size_t>> fixesOf; // finding -> fix indexes
  for (const PlannedFix &planned : plan.fixes)
    fixesOf[planned.finding].push_back(planned.fix);

  std::string yaml;
  llvm::raw_string_ostream out(yaml);
  std::string mainFile = findings.empty() ? "" : findings.front().location.file;
  out << "---\nMainSourceFile:  " << quoted(mainFile) << "\nDiagnostics:";
  if (fixesOf.empty())
    out << " []";
  out << "\n";
  for (const auto &[index, fixIndexes] : fixesOf) {
    const Finding &finding = findings[index];
    out << "  - DiagnosticName:  " << quoted(finding.checkId) << "\n"
        << "    DiagnosticMessage:\n"
        << "      Message:         " << quoted(finding.message) << "\n"
        << "      FilePath:        " << quoted(finding.location.file) << "\n"
        << "      FileOffset:      " << fileOffset(finding.location) << "\n"
        << "      Replacements:\n";
    for (size_t fixIndex : fixIndexes)
      for (const TextEdit &edit : finding.fixes[fixIndex].edits)
        out << "        - FilePath:        " << quoted(edit.file) << "\n"
            << "          Offset:          " << edit.offset << "\n"
            << "          Length:          " << edit.length << "\n"
            << "          ReplacementText: " << quoted(edit.replacement) << "\n";
    out << "    Level:           " << levelName(finding.severity) << "\n";
  }
  out << "...\n";
  std::string error;
  if (!writeFileAtomically(yamlPath, yaml, error))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   yamlPath + ": cannot write the fixes: " + error);
  return llvm::Error::success();
}

} // namespace streamlint
