// --baseline: a previous report (JSON or SARIF) read back.
#include "analyzer/baseline/Baseline.h"
#include "analyzer/support/SourceTextCache.h"
#include "tests/fuzz/FuzzInput.h"

#include "llvm/Support/Error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string path = streamlint::fuzz::writeScratchFile(data, size, "baseline.json");
  auto baseline = streamlint::readBaseline(path);
  if (!baseline) {
    llvm::consumeError(baseline.takeError());
    return 0;
  }
  std::vector<streamlint::Finding> findings(1);
  findings[0].checkId = "default-stream";
  findings[0].location.file = "/fuzz/a.cu";
  findings[0].location.line = 1;
  findings[0].fingerprint = "0123456789abcdef";
  streamlint::removeBaselineFindings(findings, *baseline);
  return 0;
}
