#include "analyzer/WholeProgramPart.h"

#include <mutex>

namespace streamlint {
namespace {

struct PartTable {
  std::mutex mutex;
  // std::map: a part's address stays valid while others are registered.
  std::map<std::string, WholeProgramPart> parts;
};

PartTable &table() {
  static PartTable instance;
  return instance;
}

} // namespace

void registerPart(WholeProgramPart part) {
  PartTable &parts = table();
  std::lock_guard<std::mutex> lock(parts.mutex);
  std::string id = part.id;
  parts.parts[id] = std::move(part);
}

const WholeProgramPart *findPart(const std::string &id) {
  PartTable &parts = table();
  std::lock_guard<std::mutex> lock(parts.mutex);
  auto found = parts.parts.find(id);
  return found == parts.parts.end() ? nullptr : &found->second;
}

} // namespace streamlint
