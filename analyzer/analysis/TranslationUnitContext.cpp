#include "analyzer/analysis/TranslationUnitContext.h"
#include "analyzer/fix/ContentDigest.h"

#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMapContext.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/Support/Path.h"

namespace streamlint {

TranslationUnitContext::TranslationUnitContext(clang::ASTContext &ast,
                                               TranslationUnitInfo info,
                                               const CheckOptions &options)
    : ast_(ast), info_(std::move(info)), options_(options) {}

std::string absoluteFileName(const clang::SourceManager &sm, clang::FileID file) {
  auto entry = sm.getFileEntryRefForID(file);
  if (!entry)
    return "";
  llvm::SmallString<256> path(entry->getName());
  sm.getFileManager().makeAbsolutePath(path);
  llvm::sys::path::remove_dots(path, /*remove_dot_dot=*/true);
  return std::string(path);
}

SourcePoint TranslationUnitContext::point(clang::SourceLocation location) const {
  SourcePoint result;
  if (location.isInvalid())
    return result;
  const clang::SourceManager &sm = sources();
  clang::SourceLocation expansion = sm.getExpansionLoc(location);
  result.file = absoluteFileName(sm, sm.getFileID(expansion));
  if (result.file.empty())
    return result;
  result.line = sm.getExpansionLineNumber(expansion);
  result.column = sm.getExpansionColumnNumber(expansion);
  return result;
}

std::string TranslationUnitContext::normalizedText(clang::SourceRange range) const {
  const clang::SourceManager &sm = sources();
  clang::CharSourceRange tokens = clang::CharSourceRange::getTokenRange(
      sm.getExpansionRange(range.getBegin()).getBegin(),
      sm.getExpansionRange(range.getEnd()).getEnd());
  llvm::StringRef text =
      clang::Lexer::getSourceText(tokens, sm, ast_.getLangOpts());
  std::string normalized;
  bool pendingSpace = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      pendingSpace = !normalized.empty();
      continue;
    }
    if (pendingSpace)
      normalized += ' ';
    pendingSpace = false;
    normalized += c;
  }
  return normalized;
}

const clang::FunctionDecl *enclosingFunctionOf(clang::ASTContext &ast,
                                               const clang::Stmt &stmt) {
  clang::DynTypedNodeList parents = ast.getParents(stmt);
  while (!parents.empty()) {
    const clang::DynTypedNode &parent = parents[0];
    if (const auto *function = parent.get<clang::FunctionDecl>())
      return function;
    if (const auto *lambda = parent.get<clang::LambdaExpr>())
      return lambda->getCallOperator();
    parents = ast.getParents(parent);
  }
  return nullptr;
}

const clang::FunctionDecl *
TranslationUnitContext::enclosingFunction(const clang::Stmt &stmt) const {
  return enclosingFunctionOf(ast_, stmt);
}

Finding TranslationUnitContext::makeFinding(llvm::StringRef checkId, Severity severity,
                                            clang::SourceRange range, std::string message,
                                            const clang::Stmt *stmt) const {
  const clang::SourceManager &sm = sources();
  Finding finding;
  finding.checkId = checkId.str();
  finding.severity = severity;
  finding.message = std::move(message);
  clang::SourceLocation begin = sm.getExpansionLoc(range.getBegin());
  finding.location = point(begin);
  clang::SourceLocation lastToken = sm.getExpansionRange(range.getEnd()).getEnd();
  clang::SourceLocation end = clang::Lexer::getLocForEndOfToken(
      lastToken, 0, sm, ast_.getLangOpts());
  finding.end = point(end.isValid() ? end : lastToken);
  if (end.isValid() && finding.end.column > 1)
    --finding.end.column;
  if (stmt) {
    if (const clang::FunctionDecl *function = enclosingFunction(*stmt))
      finding.function = function->getQualifiedNameAsString();
    finding.snippet = normalizedText(stmt->getSourceRange());
  } else {
    finding.snippet = normalizedText(range);
  }
  return finding;
}

bool TranslationUnitContext::inSystemHeader(clang::SourceLocation location) const {
  clang::SourceLocation begin = sources().getExpansionLoc(location);
  return begin.isInvalid() || sources().isInSystemHeader(begin);
}

Finding &TranslationUnitContext::report(llvm::StringRef checkId,
                                        Severity severity,
                                        clang::SourceRange range,
                                        std::string message,
                                        const clang::Stmt *stmt) {
  findings_.push_back(makeFinding(checkId, severity, range, std::move(message), stmt));
  inSystemHeader_.push_back(inSystemHeader(range.getBegin()));
  return findings_.back();
}

void TranslationUnitContext::addRelated(Finding &finding,
                                        clang::SourceLocation location,
                                        std::string message) const {
  finding.related.push_back({point(location), std::move(message)});
}

std::optional<TextEdit>
TranslationUnitContext::edit(clang::CharSourceRange range,
                             llvm::StringRef text) const {
  const clang::SourceManager &sm = sources();
  clang::CharSourceRange fileRange =
      clang::Lexer::makeFileCharRange(range, sm, ast_.getLangOpts());
  if (fileRange.isInvalid())
    return std::nullopt;
  auto [beginFile, beginOffset] = sm.getDecomposedLoc(fileRange.getBegin());
  auto [endFile, endOffset] = sm.getDecomposedLoc(fileRange.getEnd());
  if (beginFile != endFile || endOffset < beginOffset ||
      sm.isInSystemHeader(fileRange.getBegin()))
    return std::nullopt;
  TextEdit edit;
  edit.begin = point(fileRange.getBegin());
  edit.end = point(fileRange.getEnd());
  edit.file = edit.begin.file;
  if (edit.file.empty())
    return std::nullopt;
  edit.offset = beginOffset;
  edit.length = endOffset - beginOffset;
  edit.replacement = text.str();
  if (usesCrlf(beginFile))
    edit.replacement = withCrlf(edit.replacement);
  std::string &digest = digests_[beginFile];
  if (digest.empty())
    digest = contentDigest(sm.getBufferData(beginFile));
  edit.fileDigest = digest;
  return edit;
}

bool TranslationUnitContext::usesCrlf(clang::FileID file) const {
  auto [found, inserted] = crlf_.try_emplace(file, false);
  if (inserted) {
    // As clang-format derives it: the line ending most lines of the file use.
    llvm::StringRef text = sources().getBufferData(file);
    size_t lines = text.count('\n'), crlf = text.count("\r\n");
    found->second = crlf * 2 > lines;
  }
  return found->second;
}

std::string withCrlf(llvm::StringRef text) {
  std::string converted;
  converted.reserve(text.size() + text.count('\n'));
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' && (i == 0 || text[i - 1] != '\r'))
      converted += '\r';
    converted += text[i];
  }
  return converted;
}

std::vector<Finding> TranslationUnitContext::takeFindings() {
  std::vector<Finding> kept;
  for (size_t i = 0; i < findings_.size(); ++i)
    if (!inSystemHeader_[i])
      kept.push_back(std::move(findings_[i]));
  findings_.clear();
  inSystemHeader_.clear();
  return kept;
}

} // namespace streamlint
