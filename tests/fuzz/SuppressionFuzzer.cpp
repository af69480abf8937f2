// NOLINT, NOLINTNEXTLINE, NOLINTBEGIN/END comments in any source text, with
// a finding on every line for two checks.
#include "analyzer/support/SourceTextCache.h"
#include "analyzer/suppress/Suppressions.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  const std::string file = "/fuzz/a.cu";
  streamlint::SourceTextCache sources;
  sources.setContents(file, text);
  std::vector<streamlint::Finding> findings;
  unsigned lines = sources.lineCount(file);
  for (unsigned line = 1; line <= lines + 1 && line <= 4096; ++line) {
    for (const char *check : {"device-sync", "default-stream"}) {
      streamlint::Finding finding;
      finding.checkId = check;
      finding.location.file = file;
      finding.location.line = line;
      finding.location.column = 1 + line % 7;
      findings.push_back(finding);
    }
  }
  streamlint::removeSuppressedFindings(findings, sources);
  return 0;
}
