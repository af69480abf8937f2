// Writes the rich test result as SARIF (argv[1]) with real files on disk, so
// validate_sarif.sh can check it with the SARIF multitool and the schema.
#include "RichResult.h"

#include "analyzer/output/Output.h"
#include "analyzer/support/SourceTextCache.h"

#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  using namespace streamlint;
  if (argc != 2) {
    llvm::errs() << "usage: write_rich_sarif OUT.sarif\n";
    return 2;
  }
  SourceTextCache sources;
  AnalysisResult result = testing::richResult(sources);
  std::error_code ec;
  llvm::raw_fd_ostream out(argv[1], ec);
  if (ec) {
    llvm::errs() << argv[1] << ": " << ec.message() << "\n";
    return 2;
  }
  writeFindings(OutputFormat::Sarif, result, testing::richOptions(), sources, out);
  return 0;
}
