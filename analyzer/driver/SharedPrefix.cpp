#include "analyzer/driver/SharedPrefix.h"

#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"

#include <algorithm>

namespace streamlint {
namespace {

/// A fake file location at offset 1, as clang's ComputePreamble lexes, so
/// that each token's location encodes its offset.
constexpr unsigned kStartOffset = 1;

/// Identifiers that expand to where they stand or to the main file: a
/// directive naming one means something else in a synthetic main file.
const llvm::StringSet<> &positionalIdentifiers() {
  static const llvm::StringSet<> names = {
      "__LINE__",     "__FILE__",          "__FILE_NAME__", "__BASE_FILE__",
      "__COUNTER__",  "__INCLUDE_LEVEL__", "__TIMESTAMP__", "__DATE__",
      "__TIME__"};
  return names;
}

/// What a directive does to the nesting of conditionals, or nullopt if it
/// is not one a shared prefix may hold.
std::optional<int> shareableKind(llvm::StringRef name, bool &includes) {
  includes = name == "include" || name == "include_next" || name == "import";
  if (includes || name == "pragma" || name == "else" || name == "elif" ||
      name == "elifdef" || name == "elifndef")
    return 0;
  if (name == "if" || name == "ifdef" || name == "ifndef")
    return 1;
  if (name == "endif")
    return -1;
  return std::nullopt; // #define, #undef, #line, #error, #warning, ...
}

/// One line's tokens: a directive, or comments only.
struct LexedLine {
  std::vector<clang::Token> tokens;
};

unsigned offsetOf(const clang::Token &token) {
  return token.getLocation().getRawEncoding() - kStartOffset;
}

/// The offset just past the newline that ends the line `offset` is on.
unsigned endOfLine(llvm::StringRef buffer, unsigned offset) {
  size_t newline = buffer.find('\n', offset);
  return newline == llvm::StringRef::npos ? buffer.size() : unsigned(newline + 1);
}

} // namespace

std::vector<PrefixDirective> shareableDirectives(llvm::StringRef buffer, unsigned prefixSize) {
  // Only directives and comments are read: C++'s lexing of them, whatever
  // the TU's language options, so that planning (before any invocation
  // exists) and the parse cut a file alike.
  clang::LangOptions language;
  language.CPlusPlus = true;
  language.LineComment = true;
  std::vector<PrefixDirective> directives;
  // clang's lexer reads up to a NUL at the end: a copy ends there.
  std::string copy = buffer.take_front(prefixSize).str();
  llvm::StringRef prefix(copy.c_str(), copy.size());
  clang::Lexer lexer(clang::SourceLocation::getFromRawEncoding(kStartOffset), language,
                     prefix.begin(), prefix.begin(), prefix.end());
  lexer.SetCommentRetentionState(true);
  std::vector<LexedLine> lines;
  clang::Token token;
  while (true) {
    lexer.LexFromRawLexer(token);
    if (token.is(clang::tok::eof))
      break;
    if (token.isAtStartOfLine() || lines.empty())
      lines.emplace_back();
    lines.back().tokens.push_back(token);
  }
  int open = 0;
  unsigned consumed = 0; // where the previous directive's line ended
  for (const LexedLine &line : lines) {
    const std::vector<clang::Token> &tokens = line.tokens;
    if (offsetOf(tokens.front()) < consumed)
      break; // a comment running on from the previous directive's line
    bool commentsOnly = std::all_of(tokens.begin(), tokens.end(), [](const clang::Token &t) {
      return t.is(clang::tok::comment);
    });
    if (commentsOnly)
      continue;
    // '#' first, a name, and comments (if any) only after the last token.
    if (!tokens.front().is(clang::tok::hash) || tokens.size() < 2 ||
        !tokens[1].is(clang::tok::raw_identifier))
      break;
    size_t last = tokens.size() - 1;
    while (tokens[last].is(clang::tok::comment))
      --last;
    bool commentInside = std::any_of(tokens.begin(), tokens.begin() + last, [](const clang::Token &t) {
      return t.is(clang::tok::comment);
    });
    bool positional = std::any_of(tokens.begin(), tokens.end(), [](const clang::Token &t) {
      return t.is(clang::tok::raw_identifier) &&
             positionalIdentifiers().contains(t.getRawIdentifier());
    });
    bool includes = false;
    std::optional<int> nesting = shareableKind(tokens[1].getRawIdentifier(), includes);
    if (commentInside || positional || !nesting)
      break;
    // An include's name must end its tokens: raw lexing reads a comment
    // inside <...> (which the preprocessor does not) as one.
    if (includes && !tokens[last].isOneOf(clang::tok::greater, clang::tok::string_literal))
      break;
    if (*nesting < 0 && open == 0)
      break;
    unsigned begin = offsetOf(tokens.front());
    unsigned lastEnd = offsetOf(tokens[last]) + tokens[last].getLength();
    // Past the line its last token (a trailing comment, maybe) ends on.
    unsigned end = endOfLine(prefix, offsetOf(tokens.back()) + tokens.back().getLength() - 1);
    if (end > prefix.size() || (end == prefix.size() && !prefix.ends_with("\n")))
      break; // the prefix ends inside this line
    open += *nesting;
    PrefixDirective directive;
    directive.text = prefix.slice(begin, lastEnd).str();
    directive.end = end;
    directive.closesAll = open == 0;
    directive.includes = includes;
    directives.push_back(std::move(directive));
    consumed = end;
  }
  return directives;
}

std::string sharedPrefixText(const std::vector<std::string> &directives) {
  std::string text;
  for (const std::string &directive : directives)
    text += directive + "\n";
  return text;
}

std::optional<unsigned> sharedPrefixEnd(llvm::StringRef buffer, unsigned prefixSize,
                                        const std::vector<std::string> &directives) {
  if (directives.empty())
    return std::nullopt;
  std::vector<PrefixDirective> own = shareableDirectives(buffer, prefixSize);
  if (own.size() < directives.size())
    return std::nullopt;
  for (size_t i = 0; i < directives.size(); ++i)
    if (own[i].text != directives[i])
      return std::nullopt;
  if (!own[directives.size() - 1].closesAll)
    return std::nullopt;
  return own[directives.size() - 1].end;
}

std::string sharedPrefixPath(llvm::StringRef mainPath) {
  llvm::SmallString<256> shared(llvm::sys::path::parent_path(mainPath));
  llvm::sys::path::append(shared, ".streamlint-shared-prefix" +
                                      llvm::sys::path::extension(mainPath).str());
  return std::string(shared);
}

} // namespace streamlint
