// A project index entry read back: a damaged or made-up entry must be a
// note and a rebuild, never a crash. What the reader accepts must write
// back to the same text (every byte of every string kept).
#include "analyzer/InputFile.h"
#include "analyzer/index/IndexEntry.h"
#include "analyzer/index/StoreAuthentication.h"

#include <cstdlib>

using namespace streamlint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size), error;
  // As ProjectIndex::lookup reads a file: bounded, then the seal, then JSON.
  if (!checkInputText(text, kIndexEntryLimits, error))
    return 0;
  static const index::StoreAuthenticator authenticator =
      index::StoreAuthenticator::fromSecret("fuzzing secret, not a real one");
  std::string_view body;
  index::openSealed(&authenticator, index::SealPurpose::IndexEntry, text, body);
  // The seed corpus's entries are stored under the key "k"; the parser is
  // fuzzed past the seal (which nothing random passes) on the body.
  index::IndexedUnit unit;
  if (!index::entryFromJson(std::string(body), "entry.json", "k", unit, error))
    return 0;
  std::string written = index::entryToJson("k", unit);
  index::IndexedUnit again;
  if (!index::entryFromJson(written, "entry.json", "k", again, error) ||
      index::entryToJson("k", again) != written)
    std::abort(); // an entry that does not survive its own round trip
  return 0;
}
