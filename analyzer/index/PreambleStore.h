#pragma once
// Parsed include prefixes (preambles) kept between runs, beside the project
// index but apart from its entries: <index>/preambles/<key>.pch, clang's
// precompiled preamble, and <key>.manifest, sealed like an index entry,
// naming the PCH's BLAKE3 digest and size and every file the prefix read with the
// digest of the bytes parsed. A preamble is used only when its manifest is
// sealed with this index's secret, every file it lists still has that
// digest, and the PCH's bytes hash to the sealed digest; the store is kept
// under a size limit by evicting the least recently used. docs/index.md,
// "Preambles".

#include "analyzer/index/IndexEntry.h"
#include "analyzer/index/ProjectIndex.h"

#include "llvm/Support/MemoryBuffer.h"

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace streamlint::index {

/// One preamble: where its prefix ends in the main file and what it read.
struct PreambleManifest {
  unsigned prefixBytes = 0;       // the preamble is the main file's first N bytes
  bool endsAtStartOfLine = false; // as clang's PreambleBounds says
  /// Whether a library template instantiated while the preamble was built
  /// names a declaration outside system headers (its arguments, or those
  /// of enclosing specializations): pointer provenance must then read the
  /// library's declarations where a project header of the prefix declares
  /// something file-local (ProvenanceIndex::build).
  bool instantiationsNameProject = true;
  std::vector<IncludedFile> files; // every file the prefix read (main file excluded)
};

/// A verified preamble: its manifest and the PCH's bytes (read into memory
/// once, then checked: clang parses exactly the bytes that were verified).
struct LoadedPreamble {
  PreambleManifest manifest;
  std::unique_ptr<llvm::MemoryBuffer> pch;
};

class PreambleStore {
public:
  /// Preambles of `index` (in its directory's preambles/), at most
  /// `limitBytes` on disk (0: no limit).
  PreambleStore(ProjectIndex &index, uint64_t limitBytes);

  /// Whether preambles may be read and written: the index's directory is
  /// streamlint's (a foreign directory gets nothing written into it).
  bool usable() { return index_.usable(); }
  /// The preamble stored under `key`, verified; nullopt if there is none or
  /// it is stale (a listed file changed), damaged or unauthenticated (then a
  /// note says so and the files are removed, so it is rebuilt).
  std::optional<LoadedPreamble> lookup(const std::string &key);
  /// A path in the store where a PCH for `key` may be written (then store()).
  std::string scratchPath(const std::string &key);
  /// Seals `manifest` for the PCH written at `scratch` and moves both into
  /// place; evicts the least recently used preambles beyond the limit.
  /// Returns the stored preamble as lookup() would, or nullopt (a note says
  /// why) when it could not be kept.
  std::optional<LoadedPreamble> store(const std::string &key, const std::string &scratch,
                                      const PreambleManifest &manifest);

  /// Held while a TU looks up, builds and stores the preamble of `key`:
  /// TUs of one run that share a prefix build it once (the others wait and
  /// reuse it).
  std::unique_lock<std::mutex> lockKey(const std::string &key);

  unsigned reused() const { return reused_; }
  unsigned built() const { return built_; }

private:
  std::string pathOf(const std::string &key, const char *extension) const;
  void remove(const std::string &key);
  void evictBeyondLimit(const std::string &keep);
  /// Removes scratch PCHs (`*.pch.tmp-<pid>-<n>`) whose writer is gone or
  /// that are a day old: what a crashed or killed run left. Once per run,
  /// before the first preamble is built.
  void removeStaleScratch();

  ProjectIndex &index_;
  uint64_t limitBytes_;
  std::string directory_;
  std::atomic<unsigned> reused_{0};
  std::atomic<unsigned> built_{0};
  std::atomic<unsigned> scratchCounter_{0};
  std::once_flag scratchCleaned_;
  std::mutex keyLocksMutex_;
  std::map<std::string, std::unique_ptr<std::mutex>> keyLocks_;
};

/// The manifest as text (the part that is sealed) and back; false with
/// `error` set when `text` is not one. Exposed for the tests.
std::string manifestText(const std::string &key, const std::string &pchDigest,
                         uint64_t pchSize, const PreambleManifest &manifest);
bool parseManifest(std::string_view text, const std::string &key, std::string &pchDigest,
                   uint64_t &pchSize, PreambleManifest &manifest, std::string &error);

} // namespace streamlint::index
