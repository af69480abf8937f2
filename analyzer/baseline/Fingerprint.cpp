#include "analyzer/baseline/Fingerprint.h"

#include "analyzer/support/Paths.h"
#include "analyzer/support/SourceTextCache.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace streamlint {

static bool isIdentifierChar(char c) { return llvm::isAlnum(c) || c == '_'; }

std::string normalizeSnippet(llvm::StringRef text) {
  std::string out;
  bool pendingSpace = false;
  for (char c : text) {
    if (llvm::isSpace(c)) {
      pendingSpace = !out.empty();
      continue;
    }
    if (pendingSpace && isIdentifierChar(out.back()) && isIdentifierChar(c))
      out += ' ';
    pendingSpace = false;
    out += c;
  }
  return out;
}

static std::string statementText(const Finding &f, SourceTextCache &sources) {
  if (!f.snippet.empty())
    return normalizeSnippet(f.snippet);
  if (std::optional<llvm::StringRef> line =
          sources.line(f.location.file, f.location.line)) {
    llvm::StringRef code = line->substr(0, line->find("//"));
    std::string normalized = normalizeSnippet(code);
    if (!normalized.empty())
      return normalized;
  }
  return normalizeSnippet(f.message);
}

void assignFingerprints(std::vector<Finding> &findings,
                        const std::string &baseDirectory,
                        SourceTextCache &sources) {
  // Occurrence indices follow source order whatever order the list is in.
  std::vector<std::size_t> order(findings.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return findingLess(findings[a], findings[b]);
  });

  std::map<std::string, unsigned> occurrences;
  for (std::size_t i : order) {
    Finding &f = findings[i];
    std::string key;
    for (const std::string &part :
         {f.checkId, displayPath(f.location.file, baseDirectory),
          statementText(f, sources), f.function}) {
      key += part;
      key += '\0';
    }
    unsigned occurrence = occurrences[key]++;
    if (!f.fingerprint.empty())
      continue;
    key += std::to_string(occurrence);
    auto digest = llvm::SHA256::hash(llvm::arrayRefFromStringRef(key));
    f.fingerprint = llvm::toHex(llvm::ArrayRef<uint8_t>(digest).take_front(16),
                                /*LowerCase=*/true);
  }
}

} // namespace streamlint
