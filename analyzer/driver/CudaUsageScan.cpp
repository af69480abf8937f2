// Preprocessing only: the lexer and the include graph, as clang would see
// them with the TU's own flags, so a CUDA header reached through a project
// header or a forced -include is found, and one behind an #if the build
// leaves off is not.
#include "analyzer/driver/CudaUsageScan.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

namespace streamlint {
namespace {

constexpr llvm::StringRef kCudaHeaderNames[] = {"cuda.h", "cuda_runtime.h",
                                                "cuda_runtime_api.h"};

/// `cudaMalloc`, `cudaStreamCreate`, `cuMemAlloc`, `cuLaunchKernel`...
bool looksLikeCudaApi(llvm::StringRef name) {
  if (name.consume_front("cuda"))
    return !name.empty() && llvm::isUpper(name.front());
  if (name.consume_front("cu"))
    return name.size() > 1 && llvm::isUpper(name.front()) &&
           llvm::isLower(name[1]);
  return false;
}

struct ScanState {
  std::vector<std::string> toolkitIncludeDirs;
  bool usesCuda = false;
  /// Lexed to the end without errors. Kept here, not in the action: the
  /// ToolInvocation owns the action and destroys it when the run ends.
  bool finished = false;
};

class IncludeWatcher : public clang::PPCallbacks {
public:
  explicit IncludeWatcher(ScanState &state) : state_(state) {}

  void InclusionDirective(clang::SourceLocation, const clang::Token &,
                          llvm::StringRef fileName, bool,
                          clang::CharSourceRange,
                          clang::OptionalFileEntryRef file, llvm::StringRef,
                          llvm::StringRef, const clang::Module *, bool,
                          clang::SrcMgr::CharacteristicKind) override {
    if (llvm::is_contained(kCudaHeaderNames, llvm::sys::path::filename(fileName)))
      state_.usesCuda = true;
    if (!file)
      return;
    llvm::StringRef path = file->getName();
    for (const std::string &dir : state_.toolkitIncludeDirs)
      if (path.starts_with(dir))
        state_.usesCuda = true;
  }

private:
  ScanState &state_;
};

/// Lexes the whole TU; stops at the first sign of CUDA.
class CudaScanAction : public clang::PreprocessorFrontendAction {
public:
  explicit CudaScanAction(ScanState &state) : state_(state) {}

protected:
  void ExecuteAction() override {
    clang::Preprocessor &pp = getCompilerInstance().getPreprocessor();
    pp.addPPCallbacks(std::make_unique<IncludeWatcher>(state_));
    pp.EnterMainSourceFile();
    clang::SourceManager &sources = pp.getSourceManager();
    clang::Token token, previous;
    previous.startToken();
    do {
      pp.Lex(token);
      if (state_.usesCuda)
        return;
      // `cudaMalloc(` in the project's own code (an API declared by hand).
      if (token.is(clang::tok::l_paren) && previous.is(clang::tok::identifier) &&
          !sources.isInSystemHeader(previous.getLocation()) &&
          looksLikeCudaApi(previous.getIdentifierInfo()->getName())) {
        state_.usesCuda = true;
        return;
      }
      previous = token;
    } while (token.isNot(clang::tok::eof));
    state_.finished = !pp.getDiagnostics().hasErrorOccurred();
  }

private:
  ScanState &state_;
};

} // namespace

bool translationUnitUsesCuda(const ClangInvocation &invocation,
                             const Toolchain &toolchain) {
  if (invocation.isCuda)
    return true;
  ScanState state;
  if (!toolchain.cudaPath.empty()) {
    llvm::SmallString<256> include(toolchain.cudaPath);
    llvm::sys::path::append(include, "include");
    state.toolkitIncludeDirs.push_back(std::string(include) + "/");
    llvm::SmallString<256> real;
    if (!llvm::sys::fs::real_path(toolchain.cudaPath, real)) {
      state.toolkitIncludeDirs.push_back(std::string(real) + "/include/");
      state.toolkitIncludeDirs.push_back(std::string(real) + "/targets/");
    }
  }
  std::vector<std::string> args = invocation.args;
  args.insert(args.end() - (args.empty() ? 0 : 1), "-w");
  // Its own working directory (relative -I resolve against the entry's
  // directory): the real file system's would move the whole process.
  llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fileSystem =
      llvm::vfs::createPhysicalFileSystem();
  fileSystem->setCurrentWorkingDirectory(invocation.directory);
  auto files = llvm::makeIntrusiveRefCnt<clang::FileManager>(
      clang::FileSystemOptions(), fileSystem);
  clang::IgnoringDiagConsumer quiet;
  clang::tooling::ToolInvocation tool(args, std::make_unique<CudaScanAction>(state),
                                      files.get());
  tool.setDiagnosticConsumer(&quiet);
  bool ran = tool.run();
  if (state.usesCuda)
    return true;
  return !(ran && state.finished);
}

} // namespace streamlint
