// clang-style diagnostics: "file:line:col: warning: message [check]", the
// source line with a caret, notes for related locations, and fix-its in
// clang's -fdiagnostics-parseable-fixits form.
#include "analyzer/output/OutputCommon.h"
#include "analyzer/support/SourceTextCache.h"
#include "analyzer/output/Writers.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/Unicode.h"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace streamlint {
namespace {

// clang's diagnostic colors (TextDiagnostic.cpp), as ANSI sequences.
constexpr const char *kReset = "\033[0m";
constexpr const char *kBold = "\033[1m";
constexpr const char *kCaretColor = "\033[0;1;32m";
constexpr unsigned kTabStop = 8;

const char *severityColor(Severity severity) {
  switch (severity) {
  case Severity::Note:
    return "\033[0;1;36m";
  case Severity::Warning:
    return "\033[0;1;35m";
  case Severity::Error:
    return "\033[0;1;31m";
  }
  return "";
}

/// A source line as displayed: tabs expanded, and the display column at
/// which each byte's character starts.
struct DisplayLine {
  std::string text;
  std::vector<unsigned> columnOfByte; // 0-based; one past the end included
};

DisplayLine layOut(llvm::StringRef line) {
  DisplayLine d;
  unsigned column = 0;
  for (std::size_t i = 0; i < line.size();) {
    unsigned length = llvm::getNumBytesForUTF8(line[i]);
    if (length == 0 || i + length > line.size())
      length = 1;
    llvm::StringRef ch = line.substr(i, length);
    unsigned width;
    if (ch == "\t") {
      width = kTabStop - column % kTabStop;
      d.text.append(width, ' ');
    } else {
      int w = llvm::sys::unicode::columnWidthUTF8(ch);
      width = w < 0 ? 1 : static_cast<unsigned>(w);
      d.text += ch.str();
    }
    for (unsigned k = 0; k < length; ++k)
      d.columnOfByte.push_back(column);
    column += width;
    i += length;
  }
  d.columnOfByte.push_back(column);
  return d;
}

/// The last display column of the character starting at `byteColumn`.
template <typename ColumnFn>
unsigned lastColumnOf(const DisplayLine &d, unsigned byteColumn,
                      ColumnFn displayColumn) {
  unsigned start = displayColumn(byteColumn);
  for (std::size_t k = byteColumn; k < d.columnOfByte.size(); ++k)
    if (d.columnOfByte[k] > start)
      return d.columnOfByte[k] - 1;
  return start;
}

class TextPrinter {
public:
  TextPrinter(const OutputOptions &options, SourceTextCache &sources,
              llvm::raw_ostream &out)
      : options_(options), sources_(sources), out_(out) {}

  void finding(const Finding &f) {
    std::string message = f.message;
    if (f.dynamic)
      message += " [" + dynamicSummary(*f.dynamic) + "]";
    header(f.location, f.severity, message, f.checkId);
    snippet(f.location, f.end);
    for (const FixIt &fix : f.fixes)
      fixIt(fix);
    for (const RelatedLocation &r : f.related) {
      header(r.location, Severity::Note, r.message, "");
      snippet(r.location, SourcePoint{});
    }
  }

  // One line per TU; the clang errors themselves go to stderr with the
  // driver's summary, so they are not printed twice.
  // The problem's lines hold clang's errors, "(N more errors)", and notes on
  // the likely cause; only errors count.
  static size_t errorCount(const TranslationUnitProblem &p) {
    size_t count = 0;
    for (const std::string &line : p.errors) {
      unsigned more = 0;
      if (llvm::StringRef(line).starts_with("note: "))
        continue;
      if (std::sscanf(line.c_str(), "(%u more errors)", &more) == 1)
        count += more;
      else
        ++count;
    }
    return count;
  }

  void problem(const TranslationUnitProblem &p) {
    std::string message = incompleteAnalysisMessage(p, errorCount(p));
    header(SourcePoint{p.file, 0, 0}, Severity::Error, message, "");
  }

private:
  void color(const char *sequence) {
    if (options_.color)
      out_ << sequence;
  }

  void header(const SourcePoint &at, Severity severity,
              const std::string &message, const std::string &check) {
    color(kBold);
    if (at.file.empty())
      out_ << "streamlint";
    else
      out_ << displayPath(at.file, options_.baseDirectory);
    if (at.line != 0) {
      out_ << ":" << at.line;
      if (at.column != 0)
        out_ << ":" << at.column;
    }
    out_ << ": ";
    color(severityColor(severity));
    out_ << severityName(severity) << ": ";
    color(kReset);
    color(kBold);
    // One line per diagnostic, or editors' problem matchers lose the rest.
    for (char c : message)
      out_ << (c == '\n' || c == '\r' ? ' ' : c);
    if (!check.empty())
      out_ << " [" << check << "]";
    color(kReset);
    out_ << "\n";
  }

  void snippet(const SourcePoint &at, const SourcePoint &end) {
    if (at.file.empty() || at.line == 0)
      return;
    std::optional<llvm::StringRef> line = sources_.line(at.file, at.line);
    if (!line)
      return;
    DisplayLine d = layOut(*line);
    auto displayColumn = [&](unsigned byteColumn) {
      std::size_t index = byteColumn == 0 ? 0 : byteColumn - 1;
      if (index < d.columnOfByte.size())
        return d.columnOfByte[index];
      return d.columnOfByte.back() +
             static_cast<unsigned>(index - (d.columnOfByte.size() - 1));
    };
    unsigned caret = displayColumn(at.column);
    unsigned last = caret; // inclusive display column of the range's end
    if (end.line == at.line && end.column > at.column)
      last = std::max(caret, lastColumnOf(d, end.column, displayColumn));
    else if (end.line > at.line && d.columnOfByte.back() > caret)
      last = d.columnOfByte.back() - 1; // runs past this line: underline it all

    std::string number = std::to_string(at.line);
    unsigned gutter = std::max<unsigned>(4, number.size());
    out_.indent(gutter - number.size() + 1) << number << " | " << d.text
                                            << "\n";
    out_.indent(gutter + 2) << "| ";
    out_.indent(caret);
    color(kCaretColor);
    out_ << "^" << std::string(last - caret, '~');
    color(kReset);
    out_ << "\n";
  }

  void fixIt(const FixIt &fix) {
    if (!fix.description.empty() && !fix.edits.empty()) {
      std::string note = fix.description;
      if (!fix.applicable)
        note += " (suggestion; --fix does not apply it)";
      const TextEdit &first = fix.edits.front();
      SourcePoint at = first.begin.line != 0 ? first.begin
                                             : pointAt(first.file, first.offset);
      at.file = first.file;
      header(at, Severity::Note, note, "");
    }
    for (const TextEdit &edit : fix.edits) {
      SourcePoint begin = edit.begin, end = edit.end;
      if (begin.line == 0)
        begin = pointAt(edit.file, edit.offset);
      if (end.line == 0)
        end = pointAt(edit.file, edit.offset + edit.length);
      out_ << "fix-it:\"";
      out_.write_escaped(displayPath(edit.file, options_.baseDirectory));
      out_ << "\":{" << begin.line << ":" << begin.column << "-" << end.line
           << ":" << end.column << "}:\"";
      out_.write_escaped(edit.replacement);
      out_ << "\"\n";
    }
  }

  SourcePoint pointAt(const std::string &file, unsigned offset) {
    SourcePoint point{file, 0, 0};
    if (auto lc = sources_.lineAndColumn(file, offset)) {
      point.line = lc->first;
      point.column = lc->second;
    }
    return point;
  }

  const OutputOptions &options_;
  SourceTextCache &sources_;
  llvm::raw_ostream &out_;
};

} // namespace

void writeText(const AnalysisResult &result, const OutputOptions &options,
               SourceTextCache &sources, llvm::raw_ostream &out) {
  TextPrinter printer(options, sources, out);
  for (const Finding *f : reportOrder(result.findings))
    printer.finding(*f);
  for (const TranslationUnitProblem &p : result.problems)
    printer.problem(p);
}

} // namespace streamlint
