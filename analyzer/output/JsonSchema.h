#pragma once
// What the JSON-based writers share: the schema version and a dump that
// never throws on invalid UTF-8 in source text.

#include <nlohmann/json.hpp>

#include <string>

namespace streamlint {

/// The "version" of streamlint's JSON output; bumped only on breaking changes.
inline constexpr int kJsonSchemaVersion = 1;

/// Pretty-prints `value`; bytes that are not UTF-8 become U+FFFD instead of
/// throwing (source files are not always valid UTF-8).
template <typename JsonT> std::string dumpJson(const JsonT &value) {
  return value.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace streamlint
