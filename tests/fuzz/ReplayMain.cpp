// Without libFuzzer (a gcc build, CI): each fuzz target is a program that
// runs its entry point once on every file of the directories (or files) it
// is given, so the seed corpus and past crash inputs stay regression tests.
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    if (!llvm::sys::fs::is_directory(argv[i])) {
      inputs.push_back(argv[i]);
      continue;
    }
    std::error_code error;
    for (llvm::sys::fs::directory_iterator it(argv[i], error), end;
         it != end && !error; it.increment(error))
      inputs.push_back(it->path());
  }
  std::sort(inputs.begin(), inputs.end());
  for (const std::string &input : inputs) {
    auto buffer = llvm::MemoryBuffer::getFile(input);
    if (!buffer) {
      llvm::errs() << input << ": " << buffer.getError().message() << "\n";
      return 1;
    }
    llvm::StringRef bytes = (*buffer)->getBuffer();
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(bytes.data()),
                           bytes.size());
  }
  llvm::outs() << "replayed " << inputs.size() << " input(s)\n";
  return inputs.empty() ? 1 : 0;
}
