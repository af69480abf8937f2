#include "analyzer/index/ProjectIndex.h"

#include "analyzer/InputFile.h"
#include "analyzer/OutputFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Object/BuildID.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#ifndef STREAMLINT_VERSION
#define STREAMLINT_VERSION "unknown"
#endif

namespace streamlint::index {
namespace {

constexpr const char *kCacheDirTag = "Signature: 8a477f597d28d172789f06886806bc55\n"
                                     "# streamlint's project index (docs/index.md)\n";

} // namespace

std::string toolIdentity() {
  static const std::string identity = [] {
    std::string identity = std::string("streamlint ") + STREAMLINT_VERSION + " " +
                           kEntryFormat;
    std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
    // The linker's build ID names the binary's content: the same streamlint
    // rebuilt from the same sources (a CI job's `install: source`) or
    // installed elsewhere is the same tool, and the cache hits. Without one,
    // its path, size and modification time.
    if (auto object = llvm::object::ObjectFile::createObjectFile(exe)) {
      llvm::object::BuildIDRef id = llvm::object::getBuildID(object->getBinary());
      if (!id.empty())
        return identity + " build-id " + llvm::toHex(id, /*LowerCase=*/true);
    } else {
      llvm::consumeError(object.takeError());
    }
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

ProjectIndex::ProjectIndex(std::string directory,
                           std::optional<StoreAuthenticator> authenticator,
                           std::string keyProblem)
    : directory_(std::move(directory)), authenticator_(std::move(authenticator)) {
  if (!authenticator_)
    notes_.push_back("the project index in " + directory_ + " is not used: " +
                     (keyProblem.empty() ? "no key to authenticate it" : keyProblem) +
                     " (docs/index.md, \"What the index trusts\")");
}

std::unique_ptr<ProjectIndex> ProjectIndex::open(std::string directory) {
  std::string problem;
  std::optional<StoreAuthenticator> authenticator = StoreAuthenticator::load(problem);
  return std::make_unique<ProjectIndex>(std::move(directory), std::move(authenticator),
                                        problem);
}

std::string ProjectIndex::entryPath(const std::string &key) const {
  llvm::SmallString<256> path(directory_);
  llvm::sys::path::append(path, "entries", key.substr(0, 2), key + ".json");
  return std::string(path);
}

bool ProjectIndex::hasEntry(const std::string &key) const {
  return llvm::sys::fs::exists(entryPath(key));
}

void ProjectIndex::note(const std::string &text) {
  std::lock_guard<std::mutex> lock(mutex_);
  notes_.push_back(text);
}

std::vector<std::string> ProjectIndex::takeNotes() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (unauthenticated_)
    notes_.push_back(std::to_string(unauthenticated_) + " index entr" +
                     (unauthenticated_ == 1 ? "y" : "ies") + " in " + directory_ +
                     " not sealed with " + authenticator_->source() +
                     " ignored and rebuilt: another user or machine wrote them "
                     "(in CI, give the jobs that share the cache one "
                     "STREAMLINT_INDEX_KEY), or they were altered");
  unauthenticated_ = 0;
  return std::move(notes_);
}

/// Whether `directory` holds nothing but what streamlint writes into an
/// index (or nothing at all, or does not exist): a concurrent run may be
/// creating it, with its CACHEDIR.TAG still a temporary file.
static bool onlyIndexFiles(const std::string &directory) {
  std::error_code code;
  for (llvm::sys::fs::directory_iterator it(directory, code), end; it != end && !code;
       it.increment(code)) {
    llvm::StringRef name = llvm::sys::path::filename(it->path());
    if (name != "entries" && name != "preambles" && name != "preamble-costs" &&
        name != ".gitignore" && name != "CACHEDIR.TAG" &&
        !name.starts_with("..gitignore.streamlint-") && // writeFileAtomically's temporaries
        !name.starts_with(".CACHEDIR.TAG.streamlint-"))
      return false;
  }
  return true; // a directory that cannot be listed is not there yet
}

bool ProjectIndex::usable() {
  std::call_once(checked_, [&] {
    if (!authenticator_)
      return;
    llvm::SmallString<256> tag(directory_);
    llvm::sys::path::append(tag, "CACHEDIR.TAG");
    std::string text, error;
    usable_ = readInputFile(std::string(tag), {4096, 0}, text, error)
                  ? text == kCacheDirTag
                  : onlyIndexFiles(directory_);
    if (!usable_)
      notes_.push_back(directory_ + " is an existing directory that is not a "
                       "streamlint index (it has no CACHEDIR.TAG written by "
                       "streamlint): the index is not used; name a new or empty "
                       "directory with --cache-dir");
  });
  return usable_;
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
  if (!usable())
    return std::nullopt;
  std::string path = entryPath(key);
  std::string text, error;
  bool missing = false;
  if (!readInputFile(path, kIndexEntryLimits, text, error, &missing)) {
    if (!missing) // not indexed yet is not worth a note
      note("ignoring a damaged index entry (it is rebuilt): " + path + ": " + error);
    return std::nullopt;
  }
  std::string_view body;
  if (openSealed(&*authenticator_, SealPurpose::IndexEntry, text, body) !=
      SealState::Valid) {
    std::lock_guard<std::mutex> lock(mutex_);
    ++unauthenticated_;
    return std::nullopt;
  }
  IndexedUnit unit;
  if (!entryFromJson(std::string(body), path, key, unit, error)) {
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
  if (!usable())
    return;
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
  // Keep the index out of version control and backups; the tag also marks
  // the directory as streamlint's (usable()).
  for (const auto &[name, text] :
       {std::pair<const char *, const char *>{".gitignore", "*\n"},
        {"CACHEDIR.TAG", kCacheDirTag}}) {
    llvm::SmallString<256> marker(directory_);
    llvm::sys::path::append(marker, name);
    std::string error;
    if (!llvm::sys::fs::exists(marker) &&
        !writeFileAtomically(std::string(marker), text, error, WriteTarget::OwnFile))
      return failed(std::string(marker) + ": " + error);
  }
  // Readers see the old entry or the new one, never a part; concurrent
  // writers of one key each rename a complete file.
  std::string error;
  if (!writeFileAtomically(
          path, authenticator_->seal(SealPurpose::IndexEntry, entryToJson(key, unit)), error,
          WriteTarget::OwnFile))
    return failed(path + ": " + error);
}

} // namespace streamlint::index
