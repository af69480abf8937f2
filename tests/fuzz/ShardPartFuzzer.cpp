// A CI shard part read back by --merge-shards: a truncated, damaged or
// made-up part must be an error naming it, never a crash or a huge
// allocation. What the reader accepts must write back to the same text.
#include "analyzer/InputFile.h"
#include "analyzer/index/ShardPart.h"
#include "analyzer/index/StoreAuthentication.h"

#include <cstdlib>

using namespace streamlint;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size), error;
  if (!checkInputText(text, kShardPartLimits, error))
    return 0;
  static const index::StoreAuthenticator authenticator =
      index::StoreAuthenticator::fromSecret("fuzzing secret, not a real one");
  std::string_view body;
  index::openSealed(&authenticator, index::SealPurpose::ShardPart, text, body);
  index::ShardPart part;
  if (!index::shardPartFromJson(std::string(body), "part.json", part, error))
    return 0;
  std::string written = index::shardPartToJson(part);
  index::ShardPart again;
  if (!index::shardPartFromJson(written, "part.json", again, error) ||
      index::shardPartToJson(again) != written)
    std::abort(); // a part that does not survive its own round trip
  return 0;
}
