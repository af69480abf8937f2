// GitHub Actions workflow commands (::warning file=...::msg). GitHub shows at
// most 10 annotations of each level per step and 50 per job, so the rest are
// counted and every finding goes to the job summary as a Markdown table.
#include "analyzer/OutputFile.h"
#include "analyzer/output/OutputCommon.h"
#include "analyzer/support/SourceTextCache.h"
#include "analyzer/output/Writers.h"

#include "llvm/Support/FileSystem.h"

#include <map>

namespace streamlint {
namespace {

constexpr unsigned kMaxPerLevel = 10;
constexpr unsigned kMaxTotal = 50;

/// Escaping for the message part of a workflow command.
std::string escapeData(llvm::StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else
      out += c;
  }
  return out;
}

/// Escaping for property values (file=, title=): also ':' and ','.
std::string escapeProperty(llvm::StringRef s) {
  std::string out;
  for (char c : escapeData(s)) {
    if (c == ':')
      out += "%3A";
    else if (c == ',')
      out += "%2C";
    else
      out += c;
  }
  return out;
}

const char *commandFor(Severity severity) {
  switch (severity) {
  case Severity::Note:
    return "notice";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "warning";
}

/// A Markdown table cell: backslash-escapes what GFM would read as markup.
std::string markdownCell(llvm::StringRef s) {
  std::string out;
  for (char c : s) {
    if (c == '\n')
      out += "<br>";
    else if (c == '\r')
      continue;
    else if (llvm::StringRef("\\`*_[]<>|~&#").contains(c))
      out += std::string("\\") + c;
    else
      out += c;
  }
  return out;
}

class GithubPrinter {
public:
  GithubPrinter(const OutputOptions &options, SourceTextCache &sources,
                llvm::raw_ostream &out)
      : options_(options), sources_(sources), out_(out) {}

  void annotate(Severity severity, const SourcePoint &at, const SourcePoint &end,
                const std::string &title, const std::string &message) {
    unsigned &perLevel = shown_[severity];
    if (perLevel >= kMaxPerLevel || total_ >= kMaxTotal) {
      ++skipped_;
      return;
    }
    ++perLevel;
    ++total_;
    out_ << "::" << commandFor(severity) << " file="
         << escapeProperty(displayPath(at.file, options_.baseDirectory));
    if (at.line != 0) {
      out_ << ",line=" << at.line;
      if (at.column != 0)
        out_ << ",col=" << sources_.codePointColumn(at.file, at.line, at.column);
      if (end.line >= at.line && end.line != 0) {
        out_ << ",endLine=" << end.line;
        if (end.line == at.line && end.column >= at.column && at.column != 0)
          out_ << ",endColumn="
               << sources_.codePointColumn(at.file, end.line, end.column);
      }
    }
    out_ << ",title=" << escapeProperty(title) << "::" << escapeData(message)
         << "\n";
  }

  void finding(const Finding &f) {
    std::string message = f.message;
    if (f.dynamic)
      message += " [" + dynamicSummary(*f.dynamic) + "]";
    for (const RelatedLocation &r : f.related)
      message += "\nnote: " + displayPath(r.location.file, options_.baseDirectory) +
                 ":" + std::to_string(r.location.line) + ": " + r.message;
    for (const FixIt &fix : f.fixes)
      if (!fix.description.empty())
        message += "\nfix: " + fix.description;
    annotate(f.severity, f.location, f.end, "streamlint: " + f.checkId, message);
  }

  void problem(const TranslationUnitProblem &p) {
    std::string message = p.fatalError.empty()
                              ? p.analyzedPartially
                                    ? "translation unit analyzed partially"
                                    : "translation unit could not be analyzed"
                              : incompleteAnalysisMessage(p, p.errors.size());
    for (const std::string &error : p.errors)
      message += "\n" + error;
    annotate(Severity::Error, SourcePoint{p.file, 0, 0}, SourcePoint{},
             "streamlint: analysis incomplete", message);
  }

  unsigned skipped() const { return skipped_; }

private:
  const OutputOptions &options_;
  SourceTextCache &sources_;
  llvm::raw_ostream &out_;
  std::map<Severity, unsigned> shown_;
  unsigned total_ = 0;
  unsigned skipped_ = 0;
};

void writeStepSummary(const AnalysisResult &result, const OutputOptions &options,
                      const std::vector<const Finding *> &ordered,
                      llvm::raw_ostream &out) {
  std::string text;
  llvm::raw_string_ostream summary(text);
  std::size_t n = result.findings.size();
  summary << "## streamlint: " << n << (n == 1 ? " finding" : " findings")
          << "\n\n";
  if (n != 0) {
    summary << "| Severity | Check | Location | Message |\n"
               "| --- | --- | --- | --- |\n";
    for (const Finding *f : ordered) {
      std::string where = displayPath(f->location.file, options.baseDirectory);
      if (f->location.line != 0)
        where += ":" + std::to_string(f->location.line) + ":" +
                 std::to_string(f->location.column);
      std::string message = f->message;
      if (f->dynamic)
        message += " [" + dynamicSummary(*f->dynamic) + "]";
      summary << "| " << severityName(f->severity) << " | "
              << markdownCell(f->checkId) << " | " << markdownCell(where)
              << " | " << markdownCell(message) << " |\n";
    }
    summary << "\n";
  }
  if (!result.problems.empty()) {
    summary << "### Translation units not fully analyzed\n\n";
    for (const TranslationUnitProblem &p : result.problems)
      summary << "- " << markdownCell(displayPath(p.file, options.baseDirectory))
              << (p.analyzedPartially ? " (partially analyzed)" : " (not analyzed)")
              << (p.errors.empty() ? "" : ": " + markdownCell(p.errors.front()))
              << "\n";
    summary << "\n";
  }
  // The annotations are the report; a summary that cannot be written (a
  // full disk) is said there and on stderr, not lost silently.
  std::string error;
  if (!appendToFile(options.githubStepSummaryPath, text, error)) {
    std::string message = "cannot write the job summary to " +
                          options.githubStepSummaryPath + ": " + error;
    out << "::warning title=streamlint::" << escapeData(message) << "\n";
    llvm::errs() << "streamlint: warning: " << message << "\n";
  }
}

} // namespace

void writeGithub(const AnalysisResult &result, const OutputOptions &options,
                 SourceTextCache &sources, llvm::raw_ostream &out) {
  GithubPrinter printer(options, sources, out);
  std::vector<const Finding *> ordered = reportOrder(result.findings);
  for (const TranslationUnitProblem &p : result.problems)
    printer.problem(p);
  for (const Finding *f : ordered)
    printer.finding(*f);
  if (printer.skipped() != 0)
    out << "streamlint: " << printer.skipped()
        << (printer.skipped() == 1 ? " more finding" : " more findings")
        << " not annotated ("
        << (options.githubStepSummaryPath.empty() ? "use --format=json for all"
                                                  : "see the job summary")
        << ")\n";
  if (!options.githubStepSummaryPath.empty())
    writeStepSummary(result, options, ordered, out);
}

} // namespace streamlint
