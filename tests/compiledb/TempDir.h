#pragma once
// A temporary directory for one test, removed at the end.

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <string>

namespace streamlint::testing {

class TempDir {
public:
  TempDir() {
    llvm::SmallString<128> dir;
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("streamlint-test", dir));
    path_ = std::string(dir);
  }
  ~TempDir() { llvm::sys::fs::remove_directories(path_); }
  const std::string &path() const { return path_; }

  /// Writes `contents` to `relative` (creating directories); returns the path.
  std::string write(const std::string &relative, const std::string &contents) {
    llvm::SmallString<256> file(path_);
    llvm::sys::path::append(file, relative);
    llvm::sys::fs::create_directories(llvm::sys::path::parent_path(file));
    std::error_code ec;
    llvm::raw_fd_ostream out(file, ec);
    EXPECT_FALSE(ec) << file.str().str();
    out << contents;
    return std::string(file);
  }

private:
  std::string path_;
};

} // namespace streamlint::testing
