#pragma once
// The content hash that ties a fix to the bytes it was computed from: the
// analysis stamps each edit with the digest of the file as clang read it, and
// --fix replaces a file only while its bytes still have that digest.

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SHA256.h"

#include <string>

namespace streamlint {

/// SHA-256 of `bytes`, 64 lowercase hex digits.
inline std::string contentDigest(llvm::StringRef bytes) {
  return llvm::toHex(llvm::SHA256::hash(llvm::arrayRefFromStringRef(bytes)),
                     /*LowerCase=*/true);
}

} // namespace streamlint
