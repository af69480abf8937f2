#include "analyzer/output/OutputCommon.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>

namespace streamlint {

std::string encodeUriPath(const std::string &path) {
  static const char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    if (llvm::isAlnum(c) || c == '-' || c == '.' || c == '_' || c == '~' ||
        c == '/') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string fileUri(const std::string &absolutePath) {
  std::string encoded = encodeUriPath(absolutePath);
  if (encoded.empty() || encoded[0] != '/')
    encoded.insert(0, "/");
  return "file://" + encoded;
}

std::string formatDuration(double us) {
  char buffer[64];
  if (us < 1000)
    std::snprintf(buffer, sizeof buffer, "%.0f us", us);
  else if (us < 1e6)
    std::snprintf(buffer, sizeof buffer, "%.1f ms", us / 1e3);
  else
    std::snprintf(buffer, sizeof buffer, "%.2f s", us / 1e6);
  return buffer;
}

static std::string formatBytes(std::uint64_t bytes) {
  char buffer[64];
  if (bytes < 1024)
    std::snprintf(buffer, sizeof buffer, "%llu B",
                  static_cast<unsigned long long>(bytes));
  else if (bytes < (1ull << 20))
    std::snprintf(buffer, sizeof buffer, "%.1f KiB", bytes / 1024.0);
  else if (bytes < (1ull << 30))
    std::snprintf(buffer, sizeof buffer, "%.1f MiB", bytes / 1048576.0);
  else
    std::snprintf(buffer, sizeof buffer, "%.1f GiB", bytes / 1073741824.0);
  return buffer;
}

std::string dynamicSummary(const DynamicEvidence &e) {
  std::string text = dynamicStatusName(e.status);
  if (e.status == DynamicStatus::NotReached)
    return text;
  text += ": " + std::to_string(e.calls) + (e.calls == 1 ? " call" : " calls");
  if (e.status != DynamicStatus::Refuted && e.misuses != 0 &&
      e.misuses != e.calls)
    text += " (" + std::to_string(e.misuses) + " misused)";
  if (e.hostTimeUs > 0)
    text += ", " + formatDuration(e.hostTimeUs);
  if (e.bytes > 0)
    text += ", " + formatBytes(e.bytes);
  return text;
}

static bool isConfirmed(const Finding &f) {
  return f.dynamic && f.dynamic->status == DynamicStatus::Confirmed;
}

std::vector<const Finding *> reportOrder(const std::vector<Finding> &findings) {
  std::vector<const Finding *> order;
  order.reserve(findings.size());
  for (const Finding &f : findings)
    order.push_back(&f);
  std::stable_sort(order.begin(), order.end(),
                   [](const Finding *a, const Finding *b) {
                     bool ca = isConfirmed(*a), cb = isConfirmed(*b);
                     if (ca != cb)
                       return ca;
                     if (ca && a->dynamic->hostTimeUs != b->dynamic->hostTimeUs)
                       return a->dynamic->hostTimeUs > b->dynamic->hostTimeUs;
                     return findingLess(*a, *b);
                   });
  return order;
}

std::string incompleteAnalysisMessage(const TranslationUnitProblem &problem,
                                      size_t errorCount) {
  if (!problem.analyzedPartially)
    return "translation unit could not be analyzed";
  if (!problem.fatalError.empty()) {
    // "file:line:col: fatal error: 'x.h' file not found" -> cause and place.
    llvm::StringRef fatal = problem.fatalError;
    auto [where, cause] = fatal.split("fatal error: ");
    if (cause.empty())
      std::swap(where, cause);
    where = where.rtrim(": ");
    return "translation unit analyzed partially: clang stopped at a fatal error (" +
           cause.str() + (where.empty() ? "" : " at " + where.str()) +
           "); findings after that point and in templates instantiated later "
           "are likely missing";
  }
  return "translation unit analyzed partially after " +
         std::to_string(errorCount) + (errorCount == 1 ? " error" : " errors") +
         "; findings may be missing";
}

} // namespace streamlint
