#pragma once
// What a check sees of the translation unit being analyzed, and where its
// findings go.

#include "analyzer/Finding.h"

#include "clang/AST/ASTContext.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <set>
#include <string>
#include <vector>

namespace streamlint {

/// The checks' options (analyzer/config/CheckOptions.h): carried for the
/// check layer, never read by a shared analysis.
class CheckOptions;

/// The function (or lambda operator, or method) whose body holds `stmt`.
const clang::FunctionDecl *enclosingFunctionOf(clang::ASTContext &ast,
                                               const clang::Stmt &stmt);

/// `text` with each line break that is a lone LF made CRLF.
std::string withCrlf(llvm::StringRef text);

/// Facts about the TU from its compile command.
struct TranslationUnitInfo {
  std::string mainFile;
  /// Built with --default-stream per-thread (or the macro): an omitted or 0
  /// stream is the per-thread stream, not the legacy barrier.
  bool perThreadDefaultStream = false;
  /// Sites claimed away from their check for this TU: (check id, its site
  /// kind) for each claim an enabled check declares (Check::claims(),
  /// handed out by the registry). A disabled claimer's sites stay with
  /// their check.
  std::set<std::pair<std::string, std::string>> claimedSites;
  /// ClangInvocation::walkedDirectories: the checks walk only the code in
  /// them, the main file, and the functions that code calls. Empty: all code
  /// outside system headers.
  std::vector<std::string> walkedDirectories;
  /// The function template instantiations (and members of class template
  /// specializations) whose bodies this parse instantiated, as clang hands
  /// them to the AST consumer; nullopt when not recorded. Pointer
  /// provenance reads those in library headers instead of walking every
  /// library declaration (ProvenanceIndex::build).
  std::optional<std::vector<const clang::FunctionDecl *>> instantiations;
  /// Whether the parse's preamble instantiated a library template naming a
  /// declaration outside system headers (none in no list of the parse's);
  /// false without a preamble.
  bool preambleInstantiationsNameProject = false;
};

/// The absolute, dot-free path of `file`, as findings name it; "" for a
/// buffer that is no file (built-ins, the command line).
std::string absoluteFileName(const clang::SourceManager &sm, clang::FileID file);

/// The AST of one TU, its facts and options, and the findings reported on it.
class TranslationUnitContext {
public:
  TranslationUnitContext(clang::ASTContext &ast, TranslationUnitInfo info,
                         const CheckOptions &options);

  clang::ASTContext &ast() const { return ast_; }
  const clang::SourceManager &sources() const { return ast_.getSourceManager(); }
  const TranslationUnitInfo &info() const { return info_; }
  const CheckOptions &options() const { return options_; }
  /// Whether an enabled check claims `checkId`'s sites of kind `sites`.
  bool sitesClaimed(llvm::StringRef checkId, llvm::StringRef sites) const {
    return info_.claimedSites.count({checkId.str(), sites.str()}) != 0;
  }

  /// The one finding builder: a finding at `range` (expansion locations),
  /// its end, snippet and (from `stmt`, when given) enclosing function
  /// filled, not recorded. report() records one; a site deferred to the
  /// whole program keeps it until resolved (TranslationUnitReach).
  Finding makeFinding(llvm::StringRef checkId, Severity severity, clang::SourceRange range,
                      std::string message, const clang::Stmt *stmt = nullptr) const;
  /// Whether a finding beginning at `location` is dropped: in a system
  /// header, or nowhere in a file.
  bool inSystemHeader(clang::SourceLocation location) const;

  /// Records makeFinding()'s finding.
  Finding &report(llvm::StringRef checkId, Severity severity,
                  clang::SourceRange range, std::string message,
                  const clang::Stmt *stmt = nullptr);

  /// Adds a related location (a loop, a call-chain step, an allocation).
  void addRelated(Finding &finding, clang::SourceLocation location,
                  std::string message) const;

  /// A replacement of `range` by `text`; nullopt inside macro expansions or
  /// when the range is not in a file. In a file whose lines end with CRLF,
  /// the line breaks `text` inserts do too.
  std::optional<TextEdit> edit(clang::CharSourceRange range,
                               llvm::StringRef text) const;

  /// The file position of `location` (its expansion location); file absolute.
  SourcePoint point(clang::SourceLocation location) const;

  /// The function (or lambda operator, or method) whose body holds `stmt`.
  const clang::FunctionDecl *enclosingFunction(const clang::Stmt &stmt) const;

  /// The source text of `range`, whitespace-normalized.
  std::string normalizedText(clang::SourceRange range) const;

  /// The findings reported so far, minus those inside system headers.
  std::vector<Finding> takeFindings();

  /// Definitions outside the traversal scope that the call graph walked
  /// because walked code calls them (analysis/AnalysisScope.h), in the order
  /// it reached them; empty while the scope is all code outside system
  /// headers. The driver adds them to the traversal scope for the walks
  /// after the call graph's.
  const std::vector<const clang::FunctionDecl *> &pulledFunctions() const { return pulled_; }
  void addPulledFunction(const clang::FunctionDecl &function) { pulled_.push_back(&function); }

private:
  clang::ASTContext &ast_;
  TranslationUnitInfo info_;
  const CheckOptions &options_;
  std::vector<Finding> findings_;
  std::vector<const clang::FunctionDecl *> pulled_;
  std::vector<bool> inSystemHeader_;
  /// Whether most lines of `file` end with CRLF; computed once per file.
  bool usesCrlf(clang::FileID file) const;

  /// contentDigest() of each edited file's buffer, computed once.
  mutable llvm::DenseMap<clang::FileID, std::string> digests_;
  mutable llvm::DenseMap<clang::FileID, bool> crlf_;
};

} // namespace streamlint
