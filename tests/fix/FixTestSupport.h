#pragma once
// A temporary project with files, and findings with fixes on them.

#include "analyzer/Finding.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>

namespace streamlint::testing {

class TempProject {
public:
  TempProject() {
    llvm::SmallString<128> dir;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("streamlint-fix", dir));
    root_ = std::string(dir);
  }
  ~TempProject() { llvm::sys::fs::remove_directories(root_); }
  const std::string &root() const { return root_; }
  std::string path(const std::string &relative) const { return root_ + "/" + relative; }

  std::string write(const std::string &relative, const std::string &contents) {
    std::string file = path(relative);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(file));
    std::error_code ec;
    llvm::raw_fd_ostream out(file, ec);
    out << contents;
    return file;
  }
  std::string read(const std::string &relative) const {
    auto buffer = llvm::MemoryBuffer::getFile(path(relative));
    return buffer ? (*buffer)->getBuffer().str() : "<unreadable>";
  }

private:
  std::string root_;
};

inline TextEdit edit(const std::string &file, unsigned offset, unsigned length,
                     const std::string &replacement) {
  TextEdit e;
  e.file = file;
  e.offset = offset;
  e.length = length;
  e.replacement = replacement;
  return e;
}

inline Finding findingWithFix(const std::string &checkId, const std::string &file,
                              unsigned line, std::vector<TextEdit> edits,
                              bool applicable = true) {
  Finding finding;
  finding.checkId = checkId;
  finding.location = {file, line, 1};
  finding.message = checkId + " message";
  FixIt fix;
  fix.description = "fix for " + checkId;
  fix.edits = std::move(edits);
  fix.applicable = applicable;
  finding.fixes.push_back(std::move(fix));
  return finding;
}

} // namespace streamlint::testing
