#pragma once
// JSON text for what streamlint stores and reads back (index entries, shard
// parts, probe traces) that
// keeps every byte of every string. Paths, snippets, messages and fix
// replacement texts come from the user's files and need not be UTF-8 (a
// Latin-1 comment, a file name); the JSON library refuses to write such a
// string, and replacing its bytes would change a fix's text. So each byte
// that is not part of valid UTF-8 is stored as NUL and two hex digits, and a
// NUL itself as NUL "00"; every other string is stored as it is.

#include <nlohmann/json.hpp>

#include <string>

namespace streamlint {

/// `value` as JSON text, every string (and key) escaped as above.
std::string dumpStored(nlohmann::json value);
/// The value dumpStored() wrote, strings restored byte for byte. Throws
/// (std::exception) on malformed text, and on a fractional number (nothing
/// stored is one). The caller has bounded its nesting
/// (analyzer/InputFile.h): restoring the strings recurses once per level.
nlohmann::json parseStored(const std::string &text);

/// The escaping of every string (and key) of `value` alone, in place, for
/// formats that keep their own layout (the probe trace); unescapeStrings()
/// throws (std::exception) on a malformed escape.
void escapeStrings(nlohmann::json &value);
void unescapeStrings(nlohmann::json &value);

/// The escaping of one string.
std::string escapeBytes(const std::string &bytes);
std::string unescapeBytes(const std::string &stored);

} // namespace streamlint
