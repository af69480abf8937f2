#include "analyzer/index/ProjectIndex.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#ifndef STREAMLINT_VERSION
#define STREAMLINT_VERSION "unknown"
#endif

namespace streamlint::index {

std::string toolIdentity() {
  static const std::string identity = [] {
    std::string identity = std::string("streamlint ") + STREAMLINT_VERSION + " " +
                           kEntryFormat;
    std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
    llvm::sys::fs::file_status status;
    if (!exe.empty() && !llvm::sys::fs::status(exe, status))
      identity += " " + exe + " " + std::to_string(status.getSize()) + " " +
                  std::to_string(llvm::sys::toTimeT(status.getLastModificationTime()));
    return identity;
  }();
  return identity;
}

std::string keyOf(const std::vector<std::string> &parts) {
  std::string text;
  for (const std::string &part : parts)
    text += std::to_string(part.size()) + ":" + part + "\n";
  return sha256Hex(text);
}

ProjectIndex::ProjectIndex(std::string directory)
    : directory_(std::move(directory)) {}

std::string ProjectIndex::entryPath(const std::string &key) const {
  llvm::SmallString<256> path(directory_);
  llvm::sys::path::append(path, "entries", key.substr(0, 2), key + ".json");
  return std::string(path);
}

void ProjectIndex::note(const std::string &text) {
  std::lock_guard<std::mutex> lock(mutex_);
  notes_.push_back(text);
}

std::vector<std::string> ProjectIndex::takeNotes() {
  std::lock_guard<std::mutex> lock(mutex_);
  return std::move(notes_);
}

std::string ProjectIndex::digestOf(const std::string &path) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = digests_.find(path);
    if (found != digests_.end())
      return found->second;
  }
  std::string digest = fileSha256(path);
  std::lock_guard<std::mutex> lock(mutex_);
  return digests_.emplace(path, digest).first->second;
}

std::optional<IndexedUnit> ProjectIndex::lookup(const std::string &key) {
  std::string path = entryPath(key);
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return std::nullopt; // not indexed yet
  IndexedUnit unit;
  std::string error;
  if (!entryFromJson(std::string((*buffer)->getBuffer()), path, key, unit, error)) {
    note("ignoring a damaged index entry (it is rebuilt): " + error);
    return std::nullopt;
  }
  // Any listed file changed or gone: the entry is stale, rebuilt silently.
  for (const IncludedFile &file : unit.includes)
    if (digestOf(file.path) != file.sha256)
      return std::nullopt;
  // A missing include that can now be found: parsed again.
  for (const std::string &path : unit.absent)
    if (llvm::sys::fs::exists(path))
      return std::nullopt;
  std::lock_guard<std::mutex> lock(mutex_);
  ++hits_;
  return unit;
}

void ProjectIndex::store(const std::string &key, const IndexedUnit &unit) {
  std::string path = entryPath(key);
  llvm::StringRef directory = llvm::sys::path::parent_path(path);
  auto failed = [&](const std::string &why) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (storeFailed_)
      return;
    storeFailed_ = true;
    notes_.push_back("cannot write the index in " + directory_ + " (" + why +
                     "); results are not kept for the next run");
  };
  if (std::error_code error = llvm::sys::fs::create_directories(directory))
    return failed(std::string(directory) + ": " + error.message());
  // Keep the index out of version control and backups.
  for (const auto &[name, text] :
       {std::pair<const char *, const char *>{".gitignore", "*\n"},
        {"CACHEDIR.TAG", "Signature: 8a477f597d28d172789f06886806bc55\n"
                         "# streamlint's project index (docs/index.md)\n"}}) {
    llvm::SmallString<256> marker(directory_);
    llvm::sys::path::append(marker, name);
    if (!llvm::sys::fs::exists(marker)) {
      std::error_code error;
      llvm::raw_fd_ostream out(marker, error);
      if (!error)
        out << text;
    }
  }
  // Write beside the entry, then rename over it: readers see the old entry
  // or the new one, never a part; concurrent writers of one key each rename
  // a complete file.
  llvm::SmallString<256> model(directory);
  llvm::sys::path::append(model, key.substr(0, 16) + ".tmp-%%%%%%%%");
  int fd = -1;
  llvm::SmallString<256> temporary;
  if (std::error_code error = llvm::sys::fs::createUniqueFile(model, fd, temporary))
    return failed(error.message());
  {
    llvm::raw_fd_ostream out(fd, /*shouldClose=*/true);
    out << entryToJson(key, unit);
    out.close();
    if (out.has_error()) {
      out.clear_error();
      llvm::sys::fs::remove(temporary);
      return failed(std::string(temporary) + ": write failed");
    }
  }
  if (std::error_code error = llvm::sys::fs::rename(temporary, path)) {
    llvm::sys::fs::remove(temporary);
    return failed(error.message());
  }
}

} // namespace streamlint::index
