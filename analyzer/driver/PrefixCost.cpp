#include "analyzer/driver/PrefixCost.h"

#include "analyzer/InputFile.h"
#include "analyzer/OutputFile.h"
#include "analyzer/driver/SharedPrefix.h"
#include "analyzer/index/ProjectIndex.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <algorithm>
#include <map>

#include <utime.h>

namespace streamlint {
namespace {

struct CountState {
  unsigned long long tokens = 0;
  /// The tokens lexed before each #include of the main file, by its offset.
  std::map<unsigned, unsigned long long> beforeInclude;
  bool finished = false; // lexed to the end without errors
};

class MainFileIncludes : public clang::PPCallbacks {
public:
  MainFileIncludes(CountState &state, const clang::SourceManager &sources)
      : state_(state), sources_(sources) {}

  void InclusionDirective(clang::SourceLocation hash, const clang::Token &, llvm::StringRef,
                          bool, clang::CharSourceRange, clang::OptionalFileEntryRef,
                          llvm::StringRef, llvm::StringRef, const clang::Module *, bool,
                          clang::SrcMgr::CharacteristicKind) override {
    if (sources_.isWrittenInMainFile(hash))
      state_.beforeInclude.emplace(sources_.getFileOffset(hash), state_.tokens);
  }

private:
  CountState &state_;
  const clang::SourceManager &sources_;
};

/// Lexes the whole file, counting tokens.
class CountTokensAction : public clang::PreprocessorFrontendAction {
public:
  explicit CountTokensAction(CountState &state) : state_(state) {}

protected:
  void ExecuteAction() override {
    clang::Preprocessor &pp = getCompilerInstance().getPreprocessor();
    pp.addPPCallbacks(std::make_unique<MainFileIncludes>(state_, pp.getSourceManager()));
    pp.EnterMainSourceFile();
    clang::Token token;
    do {
      pp.Lex(token);
      ++state_.tokens;
    } while (token.isNot(clang::tok::eof));
    state_.finished = !pp.getDiagnostics().hasErrorOccurred();
  }

private:
  CountState &state_;
};

} // namespace

std::vector<double> prefixTokenCounts(const ClangInvocation &invocation,
                                      const std::vector<std::string> &run) {
  std::vector<std::string> args = invocation.args;
  if (run.empty() || args.empty() || args.back() != invocation.file)
    return {};
  llvm::SmallString<256> mainPath(invocation.file);
  llvm::sys::path::make_absolute(invocation.directory, mainPath);
  std::string path = sharedPrefixPath(mainPath);
  args.back() = path;
  args.insert(args.end() - 1, "-w");
  std::string text = sharedPrefixText(run);
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  memory->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(text, path));
  for (const auto &[virtualPath, contents] : invocation.virtualFiles)
    memory->addFile(virtualPath, 0, llvm::MemoryBuffer::getMemBufferCopy(contents));
  auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::createPhysicalFileSystem());
  overlay->pushOverlay(memory);
  overlay->setCurrentWorkingDirectory(invocation.directory);
  auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(clang::FileSystemOptions(),
                                                             overlay);
  CountState state;
  clang::IgnoringDiagConsumer quiet;
  clang::tooling::ToolInvocation tool(args, std::make_unique<CountTokensAction>(state),
                                      files.get());
  tool.setDiagnosticConsumer(&quiet);
  if (!tool.run() || !state.finished)
    return {};
  // Directive k starts the (k+1)-th line; what the first k + 1 cost is
  // what was lexed before the next #include at or after line k + 2.
  std::vector<unsigned> lineStarts;
  unsigned offset = 0;
  for (const std::string &directive : run) {
    lineStarts.push_back(offset);
    offset += static_cast<unsigned>(directive.size()) + 1;
  }
  std::vector<double> costs;
  for (size_t k = 0; k < run.size(); ++k) {
    unsigned long long cost = state.tokens;
    if (k + 1 < run.size()) {
      auto next = state.beforeInclude.lower_bound(lineStarts[k + 1]);
      if (next != state.beforeInclude.end())
        cost = next->second;
    }
    costs.push_back(static_cast<double>(cost));
  }
  return costs;
}

std::vector<double> storedPrefixTokenCounts(const ClangInvocation &invocation,
                                            const std::vector<std::string> &run,
                                            const std::string &directory,
                                            const std::string &key) {
  if (directory.empty())
    return prefixTokenCounts(invocation, run);
  std::vector<std::string> parts = {key};
  parts.insert(parts.end(), run.begin(), run.end());
  llvm::SmallString<256> path(directory);
  llvm::sys::path::append(path, index::keyOf(parts) + ".txt");
  std::string text, error;
  if (readInputFile(std::string(path), InputLimits{kMiB}, text, error)) {
    llvm::SmallVector<llvm::StringRef, 16> fields;
    llvm::StringRef(text).split(fields, ' ', -1, /*KeepEmpty=*/false);
    std::vector<double> counts;
    for (llvm::StringRef field : fields) {
      unsigned long long count = 0;
      if (field.trim().getAsInteger(10, count))
        break;
      counts.push_back(static_cast<double>(count));
    }
    if (counts.size() == run.size()) {
      ::utime(path.c_str(), nullptr); // recently used: evicted last
      return counts;
    }
  }
  std::vector<double> counts = prefixTokenCounts(invocation, run);
  if (counts.empty() || directory.empty() || llvm::sys::fs::create_directories(directory))
    return counts;
  std::string written;
  for (double count : counts)
    written += std::to_string(static_cast<unsigned long long>(count)) + " ";
  writeFileAtomically(std::string(path), written, error, WriteTarget::OwnFile);
  return counts;
}

void evictPrefixCosts(const std::string &directory, size_t filesKept) {
  struct Kept {
    std::string path;
    llvm::sys::TimePoint<> used;
  };
  std::vector<Kept> kept;
  std::error_code code;
  for (llvm::sys::fs::directory_iterator it(directory, code), end; it != end && !code;
       it.increment(code)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    llvm::sys::fs::file_status status;
    // <64 hex digits>.txt: what storedPrefixTokenCounts writes.
    if (!name.ends_with(".txt") || name.size() != 68 ||
        llvm::sys::fs::status(it->path(), status) ||
        status.type() != llvm::sys::fs::file_type::regular_file)
      continue;
    kept.push_back({it->path(), status.getLastModificationTime()});
  }
  if (kept.size() <= filesKept)
    return;
  std::sort(kept.begin(), kept.end(), [](const Kept &a, const Kept &b) {
    return a.used != b.used ? a.used < b.used : a.path < b.path;
  });
  for (size_t i = 0; i < kept.size() - filesKept; ++i)
    llvm::sys::fs::remove(kept[i].path);
}

} // namespace streamlint
