#include "analyzer/StoredJson.h"

#include <stdexcept>

namespace streamlint {
namespace {

using nlohmann::json;

/// Length of the valid UTF-8 sequence at `text[i]` (RFC 3629: no overlong
/// forms, no surrogates, nothing above U+10FFFF), or 0.
size_t validSequenceAt(const std::string &text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char lead = byte(i);
  if (lead < 0x80)
    return 1;
  size_t length;
  unsigned char low = 0x80, high = 0xBF; // the second byte's range
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0)
      low = 0xA0;
    else if (lead == 0xED)
      high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0)
      low = 0x90;
    else if (lead == 0xF4)
      high = 0x8F;
  } else {
    return 0;
  }
  if (i + length > text.size() || byte(i + 1) < low || byte(i + 1) > high)
    return 0;
  for (size_t k = 2; k < length; ++k)
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF)
      return 0;
  return length;
}

bool storedAsIs(const std::string &text) {
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '\0')
      return false;
    size_t length = validSequenceAt(text, i);
    if (!length)
      return false;
    i += length;
  }
  return true;
}

const char kHex[] = "0123456789abcdef";

int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

void escapeAll(json &value) {
  if (value.is_string()) {
    std::string &text = value.get_ref<std::string &>();
    if (!storedAsIs(text))
      text = escapeBytes(text);
  } else if (value.is_array()) {
    for (json &element : value)
      escapeAll(element);
  } else if (value.is_object()) {
    bool keysAsIs = true;
    for (auto &[key, element] : value.items()) {
      keysAsIs &= storedAsIs(key);
      escapeAll(element);
    }
    if (!keysAsIs) {
      json renamed = json::object();
      for (auto &[key, element] : value.items())
        renamed[escapeBytes(key)] = std::move(element);
      value = std::move(renamed);
    }
  }
}

void unescapeAll(json &value, bool fractionsAllowed) {
  // Nothing the index stores is fractional; converting a huge float to an
  // integer field would be undefined behaviour.
  if (!fractionsAllowed && value.is_number_float())
    throw std::runtime_error("unexpected fractional number in a stored file");
  if (value.is_string()) {
    std::string &text = value.get_ref<std::string &>();
    if (text.find('\0') != std::string::npos)
      text = unescapeBytes(text);
  } else if (value.is_array()) {
    for (json &element : value)
      unescapeAll(element, fractionsAllowed);
  } else if (value.is_object()) {
    bool escapedKeys = false;
    for (auto &[key, element] : value.items()) {
      escapedKeys |= key.find('\0') != std::string::npos;
      unescapeAll(element, fractionsAllowed);
    }
    if (escapedKeys) {
      json renamed = json::object();
      for (auto &[key, element] : value.items())
        renamed[unescapeBytes(key)] = std::move(element);
      value = std::move(renamed);
    }
  }
}

} // namespace

std::string escapeBytes(const std::string &bytes) {
  std::string stored;
  stored.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    size_t length = bytes[i] == '\0' ? 0 : validSequenceAt(bytes, i);
    if (length) {
      stored.append(bytes, i, length);
      i += length;
      continue;
    }
    unsigned char byte = static_cast<unsigned char>(bytes[i++]);
    stored += '\0';
    stored += kHex[byte >> 4];
    stored += kHex[byte & 0xF];
  }
  return stored;
}

std::string unescapeBytes(const std::string &stored) {
  std::string bytes;
  bytes.reserve(stored.size());
  for (size_t i = 0; i < stored.size(); ++i) {
    if (stored[i] != '\0') {
      bytes += stored[i];
      continue;
    }
    int high = i + 2 < stored.size() ? hexValue(stored[i + 1]) : -1;
    int low = high >= 0 ? hexValue(stored[i + 2]) : -1;
    if (low < 0)
      throw std::runtime_error("malformed byte escape in a stored string");
    bytes += static_cast<char>(high << 4 | low);
    i += 2;
  }
  return bytes;
}

void escapeStrings(json &value) { escapeAll(value); }
void unescapeStrings(json &value) { unescapeAll(value, /*fractionsAllowed=*/true); }

std::string dumpStored(json value) {
  escapeAll(value);
  return value.dump();
}

json parseStored(const std::string &text) {
  json value = json::parse(text);
  unescapeAll(value, /*fractionsAllowed=*/false);
  return value;
}

} // namespace streamlint
