#pragma once
// The JSON forms of source points and text edits, shared by every stored
// form that carries them (the TU summary and parts, reach/SummaryJson; the
// ordering part, analysis/OrderingSummaryJson). No clang.

#include "analyzer/Finding.h"

#include <nlohmann/json.hpp>

namespace streamlint {

/// [file, line, column].
nlohmann::json pointJson(const SourcePoint &p);
/// Throws nlohmann::json's exceptions on anything but pointJson's form.
SourcePoint pointFrom(const nlohmann::json &j);
nlohmann::json editJson(const TextEdit &e);
/// Throws nlohmann::json's exceptions on anything but editJson's form.
TextEdit editFrom(const nlohmann::json &j);

} // namespace streamlint
