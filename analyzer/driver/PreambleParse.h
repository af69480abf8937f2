#pragma once
// Parsing a TU on a preamble: its include prefix (the directives before the
// first declaration, as clang's ComputePreambleBounds finds them) parsed
// once into a precompiled preamble, kept in the PreambleStore, and loaded
// instead of parsed again while nothing it read changed, as clangd does.

#include "analyzer/driver/PhaseTimes.h"
#include "analyzer/index/PreambleStore.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <memory>
#include <string>
#include <vector>

namespace streamlint {

/// Whether a TU's parse may use a preamble, and where they are kept.
struct PreambleRequest {
  index::PreambleStore *store = nullptr; // null: parsed without one
  /// What the parse depends on besides the prefix and the files it reads
  /// (sharedPreambleKey: tool, command without the main file, its directory,
  /// toolchain, in-memory files).
  std::string parseKey;
  /// The leading directives of the prefix this TU shares with others
  /// (sharedPrefixesOf): its preamble is theirs, built from them alone.
  /// Empty: its own whole prefix.
  std::vector<std::string> sharedPrefix;
  /// Whether a preamble missing from the store is built. Building one costs
  /// more than the parse it saves (on a torch-heavy TU 1.0-1.5x clang's own
  /// parse: the parse plus writing the PCH), so it pays only once reused: a
  /// TU whose prefix no other TU shares is parsed whole on its first
  /// analysis and gets its preamble when it is analyzed again.
  bool buildMissing = true;
};

/// What a parse did with a preamble.
struct PreambleUse {
  /// Deferred: none was stored and PreambleRequest::buildMissing was not set.
  enum State { None, Reused, Built, Deferred } state = None;
  /// The files the prefix read (in the preamble, not in the parse's own
  /// source manager), the main file excluded.
  std::vector<index::IncludedFile> files;
  /// SHA-256 of the main file as the preamble's prefix was cut from it.
  std::string mainDigest;
  /// PreambleManifest::instantiationsNameProject of the preamble used.
  bool instantiationsNameProject = true;
};

/// The main file and every other file `sources` read, each with the digest
/// of the bytes parsed, outside `versioned` directories and the in-memory
/// shims (TranslationUnitRunner.cpp).
std::vector<index::IncludedFile> filesRead(const clang::SourceManager &sources,
                                           const std::vector<std::string> &versioned);

/// Runs the action `create()` gives on each invocation, on a preamble when
/// `request.store` is set and the main file has an include prefix: the
/// stored one if it verifies, else one built now and stored. The PCH's
/// bytes reach clang through an in-memory layer pushed on `overlay` (the
/// file system of the FileManager the tool runs with).
class PreambleActionFactory : public clang::tooling::FrontendActionFactory {
public:
  PreambleActionFactory(std::unique_ptr<clang::FrontendAction> action,
                        const PreambleRequest &request,
                        llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay,
                        std::vector<std::string> versioned, PreambleUse &use,
                        PhaseTimes &phases)
      : action_(std::move(action)), request_(request), overlay_(std::move(overlay)),
        versioned_(std::move(versioned)), use_(use), phases_(phases) {}

  std::unique_ptr<clang::FrontendAction> create() override { return std::move(action_); }
  bool runInvocation(std::shared_ptr<clang::CompilerInvocation> invocation,
                     clang::FileManager *files,
                     std::shared_ptr<clang::PCHContainerOperations> pchOperations,
                     clang::DiagnosticConsumer *diagnostics) override;

private:
  void attachPreamble(clang::CompilerInvocation &invocation, clang::FileManager &files,
                      std::shared_ptr<clang::PCHContainerOperations> pchOperations);

  std::unique_ptr<clang::FrontendAction> action_;
  const PreambleRequest &request_;
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> overlay_;
  std::vector<std::string> versioned_;
  PreambleUse &use_;
  PhaseTimes &phases_; // "preamble built" / "preamble reused", before "parse"
};

} // namespace streamlint
