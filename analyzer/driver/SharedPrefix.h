#pragma once
// Preambles shared by TUs whose include prefixes begin alike. A TU's prefix
// (clang's ComputePreambleBounds) holds its comments and directives; two
// files of one directory, compiled alike, that begin with the same
// #includes but differ in a comment, a #define further on or one #include
// more, read the same headers first. Their common leading directives become
// one preamble: its PCH is built from those directives alone, and each TU
// skips the bytes up to the end of the last of them (PreambleParse.cpp).
//
// Only directives whose meaning does not depend on where they stand are
// shared: #include (and _next, #import), the conditionals, #pragma; none
// that names __LINE__, __FILE__ or the like. The first #define, #undef,
// #line or other directive ends what a TU can share: the rest of its prefix
// is parsed with its body.

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace streamlint {

/// One shareable directive of a main file's prefix.
struct PrefixDirective {
  std::string text;       // its bytes from '#' to its last token, comments excluded
  unsigned end = 0;       // offset just past the line it ends on
  bool closesAll = false; // no #if is open after it: a prefix may end here
  bool includes = false;  // #include, #include_next or #import
};

/// The shareable directives at the start of `buffer`'s first `prefixSize`
/// bytes (lexed raw); it stops at the first that is not.
std::vector<PrefixDirective> shareableDirectives(llvm::StringRef buffer, unsigned prefixSize);

/// The synthetic main file a shared preamble is built from: `directives`,
/// one per line.
std::string sharedPrefixText(const std::vector<std::string> &directives);

/// Where `buffer` stops sharing `directives`: the offset just past the last
/// of them, if its prefix (the first `prefixSize` bytes) begins with them;
/// else nullopt (the file changed since its group was formed).
std::optional<unsigned> sharedPrefixEnd(llvm::StringRef buffer, unsigned prefixSize,
                                        const std::vector<std::string> &directives);

/// Where a shared prefix is parsed: beside the main file (a quoted #include
/// resolves alike), under a name no source file has.
std::string sharedPrefixPath(llvm::StringRef mainPath);

/// What parsing each leading part of `run` costs: element k for its first
/// k + 1 directives, in any unit; empty if it could not be measured.
using RunCosts = std::function<std::vector<double>(const std::vector<std::string> &run)>;

/// For each of `prefixes` (the shareable directives of TUs whose preamble
/// key agrees: same command, directory and toolchain), the run of leading
/// directives whose preamble it parses on; empty for none (its own whole
/// prefix). Runs are built where no #if is open and a file was included,
/// and only for two TUs or more; of those, the set that saves the most
/// parsing on the first run (each TU saves its run's cost, each run built
/// costs 1.25 times its own once: SharedPrefixGroups.cpp). `costs` is asked
/// only where TUs could take runs other TUs take too; without it, or where
/// it fails, each directive costs one.
std::vector<std::vector<std::string>>
sharedDirectivesOf(const std::vector<std::vector<PrefixDirective>> &prefixes,
                   const RunCosts &costs = {});

} // namespace streamlint
