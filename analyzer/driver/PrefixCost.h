#pragma once
// What parsing a run of leading directives costs, before any preamble is
// built: the tokens the preprocessor yields for it (what the parser then
// reads), with the TU's own flags. Which run a group of TUs shares
// (SharedPrefixGroups.cpp) follows from these: a project's first #include
// often carries nearly all of a prefix's cost (on apex's amp_C,
// <ATen/ATen.h> alone took 9.5 s of clang's 9.7 s for the seven
// directives of its kernels' prefix).

#include "analyzer/compiledb/CompileDatabase.h"

#include <cstddef>
#include <string>
#include <vector>

namespace streamlint {

/// The tokens the preprocessor yields for each leading part of `run`
/// (element k: its first k + 1 directives), the run parsed as a shared
/// prefix is (sharedPrefixPath beside `invocation`'s main file, with its
/// flags and in-memory files). Empty if it cannot be preprocessed cleanly.
std::vector<double> prefixTokenCounts(const ClangInvocation &invocation,
                                      const std::vector<std::string> &run);

/// prefixTokenCounts, kept in `directory` under `key` and the run (a
/// re-run does not preprocess again; "": not kept). The counts choose only which
/// preambles are built, never what a parse reads: a stale or altered file
/// costs speed, not findings, and one that does not read back as one count
/// per directive is measured again.
std::vector<double> storedPrefixTokenCounts(const ClangInvocation &invocation,
                                            const std::vector<std::string> &run,
                                            const std::string &directory,
                                            const std::string &key);

/// How many measured runs a project index keeps (`preamble-costs/`, one
/// small file each): beyond it the least recently used are removed.
constexpr size_t kPrefixCostFilesKept = 2048;

/// Removes the least recently used count files of `directory` (those
/// storedPrefixTokenCounts writes; a read counts as a use) beyond
/// `filesKept`. Other files are left alone; a file removed is measured
/// again when a run needs it.
void evictPrefixCosts(const std::string &directory, size_t filesKept);

} // namespace streamlint
