// nvcc names GPU targets many ways (-arch=sm_80, -gencode arch=compute_75,
// code=[compute_75,sm_75], -code=sm_90a); clang takes one --cuda-gpu-arch.
#include "analyzer/compiledb/TranslationParts.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

namespace streamlint::compiledb {

std::string pickGpuArch(const std::vector<std::string> &archValues) {
  // The newest architecture named: the one this toolkit certainly supports.
  // native/all/all-major name none and leave the choice to the caller.
  int best = -1;
  std::string bestSuffix;
  for (const auto &value : archValues) {
    llvm::StringRef rest = value;
    while (!rest.empty()) {
      size_t at = rest.find_first_of("sc");
      if (at == llvm::StringRef::npos)
        break;
      rest = rest.drop_front(at);
      if (!rest.consume_front("sm_") && !rest.consume_front("compute_")) {
        rest = rest.drop_front(1);
        continue;
      }
      llvm::StringRef digits = rest.take_while(llvm::isDigit);
      rest = rest.drop_front(digits.size());
      int number = 0;
      if (digits.empty() || digits.getAsInteger(10, number))
        continue;
      // sm_90a is an arch clang knows; the family suffix (sm_100f) is not.
      std::string suffix = rest.starts_with("a") ? "a" : "";
      if (number > best || (number == best && !suffix.empty())) {
        best = number;
        bestSuffix = suffix;
      }
    }
  }
  if (best < 0)
    return "";
  return "sm_" + std::to_string(best) + bestSuffix;
}

} // namespace streamlint::compiledb
