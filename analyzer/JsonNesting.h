#pragma once
// JSON readers here (llvm::json, nlohmann) recurse once per nesting level:
// a file nested 100,000 arrays deep overflows the stack. Every reader checks
// the depth first, in one linear pass that needs no stack.

#include <cstddef>
#include <optional>
#include <string_view>

namespace streamlint {

/// Deeper than any real compile database, config, baseline or trace.
inline constexpr unsigned kMaxJsonNesting = 512;

/// The byte offset of the first `[` or `{` nested deeper than `maxDepth`
/// (outside strings), or nullopt if there is none.
std::optional<size_t> jsonNestingTooDeepAt(std::string_view text,
                                           unsigned maxDepth = kMaxJsonNesting);

} // namespace streamlint
