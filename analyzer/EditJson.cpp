#include "analyzer/EditJson.h"

namespace streamlint {

using nlohmann::json;

json pointJson(const SourcePoint &p) { return {p.file, p.line, p.column}; }

SourcePoint pointFrom(const json &j) {
  return {j.at(0).get<std::string>(), j.at(1).get<unsigned>(), j.at(2).get<unsigned>()};
}

json editJson(const TextEdit &e) {
  return {{"file", e.file}, {"offset", e.offset}, {"length", e.length},
          {"replacement", e.replacement}, {"begin", pointJson(e.begin)},
          {"end", pointJson(e.end)}, {"fileDigest", e.fileDigest}};
}

TextEdit editFrom(const json &j) {
  TextEdit e;
  e.file = j.at("file").get<std::string>();
  e.offset = j.at("offset").get<unsigned>();
  e.length = j.at("length").get<unsigned>();
  e.replacement = j.at("replacement").get<std::string>();
  e.begin = pointFrom(j.at("begin"));
  e.end = pointFrom(j.at("end"));
  e.fileDigest = j.value("fileDigest", "");
  return e;
}

} // namespace streamlint
