#include "analyzer/suppress/Nolint.h"
#include "analyzer/support/Glob.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

namespace streamlint {

bool checkListMatches(llvm::StringRef list, llvm::StringRef checkId) {
  std::string prefixed = checkId.starts_with("streamlint-")
                             ? checkId.str()
                             : "streamlint-" + checkId.str();
  llvm::SmallVector<llvm::StringRef, 4> entries;
  list.split(entries, ',', -1, /*KeepEmpty=*/false);
  bool selected = false;
  for (llvm::StringRef entry : entries) {
    entry = entry.trim();
    bool exclude = entry.consume_front("-");
    if (entry.empty())
      continue;
    if (globMatches(entry, checkId) || globMatches(entry, prefixed))
      selected = !exclude;
  }
  return selected;
}

bool NolintDirective::covers(llvm::StringRef checkId) const {
  return !checks || checkListMatches(*checks, checkId);
}

static bool isIdentifierChar(char c) { return llvm::isAlnum(c) || c == '_'; }

std::vector<NolintDirective> findNolintDirectives(llvm::StringRef text,
                                                  unsigned line) {
  std::vector<NolintDirective> found;
  std::size_t pos = 0;
  while ((pos = text.find("NOLINT", pos)) != llvm::StringRef::npos) {
    NolintDirective d;
    d.line = line;
    d.column = static_cast<unsigned>(pos) + 1;
    llvm::StringRef rest = text.substr(pos + 6);
    if (rest.consume_front("NEXTLINE"))
      d.kind = NolintDirective::Kind::NextLine;
    else if (rest.consume_front("BEGIN"))
      d.kind = NolintDirective::Kind::Begin;
    else if (rest.consume_front("END"))
      d.kind = NolintDirective::Kind::End;
    pos = text.size() - rest.size();
    // "NOLINTFOO" or "MY_NOLINT" is some other word, not a directive.
    bool wordStart = d.column == 1 || !isIdentifierChar(text[d.column - 2]);
    if (!wordStart || (!rest.empty() && isIdentifierChar(rest.front())))
      continue;
    if (rest.consume_front("(")) {
      std::size_t close = rest.find(')');
      if (close != llvm::StringRef::npos) {
        std::string list;
        for (char c : rest.take_front(close))
          if (!llvm::isSpace(c))
            list += c;
        d.checks = list;
        pos = text.size() - rest.size() + close + 1;
      }
    }
    found.push_back(std::move(d));
  }
  return found;
}

} // namespace streamlint
