#include "analyzer/driver/PreambleParse.h"

#include "analyzer/analysis/AnalysisScope.h"
#include "analyzer/analysis/InstantiationArguments.h"
#include "analyzer/driver/SharedPrefix.h"
#include "analyzer/compiledb/CompileDatabase.h"
#include "analyzer/index/ProjectIndex.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/PreprocessorOptions.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <set>

namespace streamlint {
namespace {

/// Where the verified PCH's bytes appear to clang: a path no real file has.
constexpr const char *kPreambleVirtualPath = "/streamlint-virtual-preamble/preamble.pch";

/// Counts clang's errors while a preamble is built (its text is not kept:
/// a prefix that does not parse cleanly is parsed with the TU, which
/// reports it).
class ErrorCounter : public clang::DiagnosticConsumer {};

/// Notes whether a library template instantiated while the preamble is
/// built names a declaration outside system headers
/// (PreambleManifest::instantiationsNameProject).
class LibraryInstantiationWatcher : public clang::ASTConsumer {
public:
  LibraryInstantiationWatcher(const clang::SourceManager &sources, bool &namesProject)
      : sources_(sources), namesProject_(namesProject) {}

  /// Clang hands each function whose body it instantiated here too.
  bool HandleTopLevelDecl(clang::DeclGroupRef group) override {
    for (clang::Decl *decl : group) {
      const auto *function = llvm::dyn_cast<clang::FunctionDecl>(decl);
      if (!namesProject_ && function && function->isTemplateInstantiation() &&
          declaredInSystemHeader(*function, sources_))
        namesProject_ = instantiatedWith(*function, [this](const clang::Decl &named) {
          return named.getLocation().isValid() && !declaredInSystemHeader(named, sources_);
        });
    }
    return true;
  }

  /// The preamble skips what the TU's parse skips (skipsBodyOf; the PCH
  /// writer's own answer is yes).
  bool shouldSkipFunctionBody(clang::Decl *decl) override {
    return skipsBodyOf(*decl, sources_);
  }

private:
  const clang::SourceManager &sources_;
  bool &namesProject_;
};

/// Writes the prefix's PCH and records the files it read and whether its
/// library instantiations name the project's declarations.
class BuildPreambleAction : public clang::GeneratePCHAction {
public:
  BuildPreambleAction(const std::vector<std::string> &versioned,
                      std::vector<index::IncludedFile> &files, bool &namesProject)
      : versioned_(versioned), files_(files), namesProject_(namesProject) {}

  std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &compiler,
                                                        llvm::StringRef file) override {
    std::unique_ptr<clang::ASTConsumer> pch =
        clang::GeneratePCHAction::CreateASTConsumer(compiler, file);
    if (!pch)
      return nullptr;
    std::vector<std::unique_ptr<clang::ASTConsumer>> consumers;
    consumers.push_back(std::make_unique<LibraryInstantiationWatcher>(
        compiler.getSourceManager(), namesProject_));
    consumers.push_back(std::move(pch));
    return std::make_unique<clang::MultiplexConsumer>(std::move(consumers));
  }

  void EndSourceFileAction() override {
    files_ = filesRead(getCompilerInstance().getSourceManager(), versioned_);
    clang::GeneratePCHAction::EndSourceFileAction();
  }

private:
  const std::vector<std::string> &versioned_;
  std::vector<index::IncludedFile> &files_;
  bool &namesProject_;
};

/// Runs one action as a tool's FrontendActionFactory does.
class OneAction : public clang::tooling::FrontendActionFactory {
public:
  explicit OneAction(std::unique_ptr<clang::FrontendAction> action)
      : action_(std::move(action)) {}
  std::unique_ptr<clang::FrontendAction> create() override { return std::move(action_); }

private:
  std::unique_ptr<clang::FrontendAction> action_;
};

/// Builds the preamble of `prefix` (the first bytes of `mainPath`, or
/// directives it shares with other TUs, parsed as `builtPath`) into the
/// store; nullopt if the prefix has errors or nothing could be kept.
std::optional<index::LoadedPreamble>
buildPreamble(const clang::CompilerInvocation &base, clang::FileManager &files,
              std::shared_ptr<clang::PCHContainerOperations> pchOperations,
              index::PreambleStore &store, const std::string &key,
              const std::string &mainPath, const std::string &builtPath,
              llvm::StringRef prefix,
              const clang::PreambleBounds &bounds, const std::vector<std::string> &versioned) {
  auto invocation = std::make_shared<clang::CompilerInvocation>(base);
  std::string scratch = store.scratchPath(key);
  clang::FrontendOptions &frontend = invocation->getFrontendOpts();
  frontend.ProgramAction = clang::frontend::GeneratePCH;
  // A prefix that is not the main file's own first bytes is parsed as a
  // file of its own, in the main file's directory (where a quoted #include
  // is looked up first): clang must not take the PCH's main file for the
  // real one, whose bytes differ.
  if (builtPath != mainPath)
    frontend.Inputs[0] = clang::FrontendInputFile(builtPath, frontend.Inputs[0].getKind());
  // The templates the prefix's headers use are instantiated into the PCH
  // (-fpch-instantiate-templates), not again at the end of every TU parsed
  // on it: on the torch extension's shared prefix that cut an edited TU's
  // re-run from 14.3 to 9.5 s of CPU and the cold run from 89.4 to 65.5 s
  // (docs/index.md, "Preambles"). What the TU's own code instantiates is
  // still instantiated in its parse.
  invocation->getLangOpts().PCHInstantiateTemplates = true;
  frontend.OutputFile = scratch;
  clang::PreprocessorOptions &preprocessor = invocation->getPreprocessorOpts();
  preprocessor.GeneratePreamble = true; // records an unterminated #if at the end
  preprocessor.PrecompiledPreambleBytes = {0, false};
  preprocessor.RetainRemappedFileBuffers = false;
  preprocessor.addRemappedFile(
      builtPath, llvm::MemoryBuffer::getMemBufferCopy(prefix, builtPath).release());
  // Its own file manager: the remapped main file must not be what the TU's
  // parse finds under the main file's name.
  auto buildFiles = llvm::makeIntrusiveRefCnt<clang::FileManager>(
      clang::FileSystemOptions(), files.getVirtualFileSystemPtr());
  std::vector<index::IncludedFile> read;
  bool namesProject = false;
  ErrorCounter errors;
  OneAction action(std::make_unique<BuildPreambleAction>(versioned, read, namesProject));
  bool built = action.runInvocation(std::move(invocation), buildFiles.get(),
                                    std::move(pchOperations), &errors);
  if (!built || errors.getNumErrors() > 0 || read.empty() ||
      !llvm::sys::fs::exists(scratch)) {
    llvm::sys::fs::remove(scratch);
    return std::nullopt;
  }
  index::PreambleManifest manifest;
  manifest.prefixBytes = bounds.Size;
  manifest.endsAtStartOfLine = bounds.PreambleEndsAtStartOfLine;
  manifest.instantiationsNameProject = namesProject;
  // The main file comes first; what the preamble depends on is the rest
  // (the prefix itself is part of the key).
  manifest.files.assign(read.begin() + 1, read.end());
  return store.store(key, scratch, manifest);
}

/// `path` is `directory` or inside it.
bool isUnder(llvm::StringRef path, llvm::StringRef directory) {
  directory = directory.rtrim('/');
  return !directory.empty() && path.starts_with(directory) &&
         (path.size() == directory.size() || path[directory.size()] == '/');
}

} // namespace

std::vector<index::IncludedFile> filesRead(const clang::SourceManager &sources,
                                           const std::vector<std::string> &versioned) {
  std::vector<index::IncludedFile> files;
  std::set<std::string> seen;
  for (unsigned i = 0, n = sources.local_sloc_entry_size(); i < n; ++i) {
    const clang::SrcMgr::SLocEntry &entry = sources.getLocalSLocEntry(i);
    if (!entry.isFile())
      continue;
    const clang::SrcMgr::FileInfo &file = entry.getFile();
    const clang::SrcMgr::ContentCache &content = file.getContentCache();
    clang::OptionalFileEntryRef origin = content.OrigEntry;
    if (!origin)
      continue;
    llvm::SmallString<256> opened(origin->getName());
    llvm::sys::fs::make_absolute(opened);
    llvm::SmallString<256> path(opened);
    llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
    // ".." after a symbolic link is not lexical: gcc's headers, opened as
    // /lib/gcc/x86_64-linux-gnu/12/../../../../include/c++/12/cstdlib where
    // /lib links to /usr/lib, are not /include/c++/12/cstdlib.
    if (path != opened && !isUnder(opened, kVirtualShimDir) &&
        !llvm::sys::fs::equivalent(path, opened))
      llvm::sys::fs::real_path(opened, path);
    if (isUnder(path, kVirtualShimDir) || !seen.insert(std::string(path)).second ||
        llvm::any_of(versioned, [&](const std::string &dir) { return isUnder(path, dir); }))
      continue;
    std::string digest;
    if (std::optional<llvm::MemoryBufferRef> buffer = content.getBufferIfLoaded())
      digest = index::sha256Hex(buffer->getBuffer());
    else
      digest = index::fileSha256(std::string(path));
    // The main file's entry is created first, so it comes first.
    files.push_back({std::string(path), digest,
                     clang::SrcMgr::isSystem(file.getFileCharacteristic())});
  }
  return files;
}

bool PreambleActionFactory::runInvocation(
    std::shared_ptr<clang::CompilerInvocation> invocation, clang::FileManager *files,
    std::shared_ptr<clang::PCHContainerOperations> pchOperations,
    clang::DiagnosticConsumer *diagnostics) {
  if (request_.store && files && request_.store->usable()) {
    attachPreamble(*invocation, *files, pchOperations);
    if (use_.state == PreambleUse::Built)
      phases_.mark("preamble built");
    else if (use_.state == PreambleUse::Reused)
      phases_.mark("preamble reused");
  }
  return clang::tooling::FrontendActionFactory::runInvocation(
      std::move(invocation), files, std::move(pchOperations), diagnostics);
}

void PreambleActionFactory::attachPreamble(
    clang::CompilerInvocation &invocation, clang::FileManager &files,
    std::shared_ptr<clang::PCHContainerOperations> pchOperations) {
  clang::PreprocessorOptions &preprocessor = invocation.getPreprocessorOpts();
  const clang::FrontendOptions &frontend = invocation.getFrontendOpts();
  // The user's own PCH, or not one source file: parsed as it is.
  if (!preprocessor.ImplicitPCHInclude.empty() ||
      preprocessor.PrecompiledPreambleBytes.first != 0 || frontend.Inputs.size() != 1 ||
      !frontend.Inputs[0].isFile())
    return;
  std::string mainPath(frontend.Inputs[0].getFile());
  auto main = files.getVirtualFileSystem().getBufferForFile(mainPath);
  if (!main)
    return;
  clang::PreambleBounds bounds =
      clang::ComputePreambleBounds(invocation.getLangOpts(), **main, /*MaxLines=*/0);
  if (bounds.Size == 0)
    return;
  // The preamble is built from `prefix`: the file's own first bytes, or the
  // directives it shares with other TUs, which then stand for its bytes up
  // to the end of the last of them (SharedPrefix.h).
  std::string prefix = (*main)->getBuffer().take_front(bounds.Size).str();
  std::string kind = "own prefix";
  clang::PreambleBounds built = bounds; // of `prefix`
  std::string builtPath = mainPath;
  if (std::optional<unsigned> end =
          sharedPrefixEnd((*main)->getBuffer(), bounds.Size, request_.sharedPrefix)) {
    prefix = sharedPrefixText(request_.sharedPrefix);
    kind = "shared directives";
    builtPath = sharedPrefixPath(mainPath);
    built = clang::PreambleBounds(prefix.size(), /*PreambleEndsAtStartOfLine=*/true);
    bounds = clang::PreambleBounds(*end, /*PreambleEndsAtStartOfLine=*/true);
  }
  std::string key = index::keyOf({request_.parseKey, "preamble", kind, prefix,
                                  built.PreambleEndsAtStartOfLine ? "1" : "0"});
  std::unique_lock<std::mutex> building = request_.store->lockKey(key);
  std::optional<index::LoadedPreamble> preamble = request_.store->lookup(key);
  PreambleUse::State state = PreambleUse::Reused;
  if (!preamble || preamble->manifest.prefixBytes != built.Size ||
      preamble->manifest.endsAtStartOfLine != built.PreambleEndsAtStartOfLine) {
    if (!request_.buildMissing) {
      use_.state = PreambleUse::Deferred;
      return;
    }
    preamble = buildPreamble(invocation, files, pchOperations, *request_.store, key,
                             mainPath, builtPath, prefix, built, versioned_);
    state = PreambleUse::Built;
  }
  if (!preamble)
    return;
  auto memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  memory->addFile(kPreambleVirtualPath, 0, std::move(preamble->pch));
  overlay_->pushOverlay(memory);
  // As clang's PrecompiledPreamble::AddImplicitPreamble configures a parse:
  // the PCH stands for the prefix, which the lexer skips; its inputs are
  // not checked by clang (by their size and time) but by the store (by
  // their digests), and the predefines come from the PCH.
  preprocessor.ImplicitPCHInclude = kPreambleVirtualPath;
  preprocessor.PrecompiledPreambleBytes = {bounds.Size, bounds.PreambleEndsAtStartOfLine};
  preprocessor.DisablePCHOrModuleValidation = clang::DisableValidationForModuleKind::PCH;
  preprocessor.UsePredefines = false;
  use_.state = state;
  use_.files = std::move(preamble->manifest.files);
  use_.instantiationsNameProject = preamble->manifest.instantiationsNameProject;
  use_.mainDigest = index::sha256Hex((*main)->getBuffer());
}

} // namespace streamlint
