// Reading compile_commands.json. Every error names the file; malformed JSON
// also gets line:column, and a bad entry its index, so users can fix it.
#include "analyzer/compiledb/CompileDatabase.h"
#include "analyzer/compiledb/TranslationParts.h"
#include "analyzer/InputFile.h"
#include "analyzer/JsonNesting.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"

namespace streamlint {
namespace {

llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// 1-based line and column of a byte offset.
std::pair<unsigned, unsigned> lineAndColumn(llvm::StringRef text,
                                            size_t offset) {
  offset = std::min(offset, text.size());
  llvm::StringRef before = text.take_front(offset);
  unsigned line = 1 + before.count('\n');
  size_t lineStart = before.rfind('\n');
  unsigned column = lineStart == llvm::StringRef::npos
                        ? offset + 1
                        : offset - lineStart;
  return {line, column};
}

/// llvm::json reports "[L:C, byte=N]: message"; we recompute the position
/// from the byte offset so the format is ours ("file:L:C: ...").
llvm::Error malformedJson(llvm::StringRef path, llvm::StringRef text,
                          llvm::Error parseError) {
  std::string logged = llvm::toString(std::move(parseError));
  llvm::StringRef rest(logged);
  size_t offset = text.size();
  std::string message = logged;
  size_t byteAt = rest.find("byte=");
  size_t close = rest.find("]: ");
  if (byteAt != llvm::StringRef::npos && close != llvm::StringRef::npos) {
    rest.substr(byteAt + 5, close - byteAt - 5).getAsInteger(10, offset);
    message = rest.substr(close + 3).str();
  }
  // The parser reports the offset just past the character it rejected.
  auto [line, column] = lineAndColumn(text, offset > 0 ? offset - 1 : 0);
  return error(path + ":" + llvm::Twine(line) + ":" + llvm::Twine(column) +
               ": malformed JSON: " + message);
}

std::vector<std::string> splitCommand(llvm::StringRef command) {
  llvm::BumpPtrAllocator alloc;
  llvm::StringSaver saver(alloc);
  llvm::SmallVector<const char *, 64> argv;
  llvm::cl::TokenizeGNUCommandLine(command, saver, argv);
  return {argv.begin(), argv.end()};
}

llvm::Expected<CompileEntry> readEntry(const llvm::json::Value &value,
                                       size_t index, llvm::StringRef path,
                                       llvm::StringRef databaseDir) {
  auto fail = [&](const llvm::Twine &what) {
    return error(path + ": entry [" + llvm::Twine(index) + "]: " + what);
  };
  const auto *object = value.getAsObject();
  if (!object)
    return fail("expected an object with \"directory\", \"file\" and "
                "\"arguments\" or \"command\"");
  auto directory = object->getString("directory");
  if (!directory)
    return fail("missing \"directory\" string");
  auto file = object->getString("file");
  if (!file || file->empty())
    return fail("missing \"file\" string");

  CompileEntry entry;
  entry.directory = compiledb::absolutePath(directory->str(), databaseDir.str());
  entry.file = compiledb::absolutePath(file->str(), entry.directory);
  if (const auto *args = object->getArray("arguments")) {
    for (const auto &arg : *args) {
      auto text = arg.getAsString();
      if (!text)
        return fail("\"arguments\" must hold only strings");
      entry.arguments.push_back(text->str());
    }
  } else if (auto command = object->getString("command")) {
    entry.arguments = splitCommand(*command);
  } else {
    return fail("missing \"arguments\" array or \"command\" string");
  }
  if (entry.arguments.empty())
    return fail("empty command");
  return entry;
}

} // namespace

llvm::Expected<std::vector<CompileEntry>>
loadCompileDatabase(const std::string &buildPath) {
  llvm::SmallString<256> path(buildPath);
  if (llvm::sys::fs::is_directory(path))
    llvm::sys::path::append(path, "compile_commands.json");
  if (!llvm::sys::fs::is_regular_file(path))
    return error(buildPath + ": no compile_commands.json");
  std::string contents, why;
  if (!readInputFile(std::string(path), kCompileDatabaseLimits, contents, why))
    return error(path + ": cannot read: " + why);
  llvm::StringRef text = contents;
  if (auto deep = jsonNestingTooDeepAt(text)) {
    auto [line, column] = lineAndColumn(text, *deep);
    return error(path + ":" + llvm::Twine(line) + ":" + llvm::Twine(column) +
                 ": malformed compile database: nested more than " +
                 llvm::Twine(kMaxJsonNesting) +
                 " levels deep (a compile database is an array of objects)");
  }
  auto json = llvm::json::parse(text);
  if (!json)
    return malformedJson(path, text, json.takeError());
  const auto *array = json->getAsArray();
  if (!array)
    return error(path + ": expected a JSON array of compile commands");
  if (array->empty())
    return error(path + ": contains no compile commands (empty array); "
                        "was the project configured with "
                        "CMAKE_EXPORT_COMPILE_COMMANDS=ON?");

  llvm::SmallString<256> absolute(path);
  llvm::sys::fs::make_absolute(absolute);
  llvm::StringRef databaseDir = llvm::sys::path::parent_path(absolute);
  std::vector<CompileEntry> entries;
  entries.reserve(array->size());
  for (size_t i = 0; i < array->size(); ++i) {
    auto entry = readEntry((*array)[i], i, path, databaseDir);
    if (!entry)
      return entry.takeError();
    entries.push_back(std::move(*entry));
  }
  return entries;
}

} // namespace streamlint
