// Every row of the CUDA API table against the installed toolkit's headers:
// the function is declared (or, for CUDA 13's removals, no longer is), its
// stream argument sits at the row's index with the row's default, copies'
// host-pointer and kind arguments are where the row says, and the
// per-thread and versioned spellings are the ones the headers' macros make.
// Text-level, so it needs no clang; exits 77 (skipped) without a toolkit.
#include "api/CudaApiTable.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace streamlint::api {
namespace {

std::string toolkit() {
  const char *root = std::getenv("CUDA_HOME");
  return root && *root ? root : "/usr/local/cuda";
}

std::string readHeader(const std::string &name) {
  std::ifstream in(toolkit() + "/include/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The parameters of `name`'s declaration, split at top-level commas;
/// empty optional-like result (`found` false) when it is not declared.
struct Declaration {
  bool found = false;
  std::vector<std::string> parameters;
};

/// Where `word` occurs as a whole identifier in `text`, from `from`.
std::size_t findWord(const std::string &text, const std::string &word, std::size_t from = 0) {
  auto identifier = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = text.find(word, from); at != std::string::npos;
       at = text.find(word, at + 1))
    if ((at == 0 || !identifier(text[at - 1])) &&
        (at + word.size() == text.size() || !identifier(text[at + word.size()])))
      return at;
  return std::string::npos;
}

std::size_t skipSpaces(const std::string &text, std::size_t at) {
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at])))
    ++at;
  return at;
}

/// `api name(` (api: CUDARTAPI or CUDAAPI): the declaration of `name`.
Declaration declarationOf(const std::string &header, const std::string &api,
                          const std::string &name) {
  Declaration result;
  std::size_t at = std::string::npos;
  for (std::size_t candidate = findWord(header, name); candidate != std::string::npos;
       candidate = findWord(header, name, candidate + 1)) {
    std::size_t open = skipSpaces(header, candidate + name.size());
    std::size_t before = header.find_last_not_of(" \t\n", candidate - 1);
    if (open < header.size() && header[open] == '(' && before != std::string::npos &&
        before + 1 >= api.size() && header.compare(before + 1 - api.size(), api.size(), api) == 0) {
      at = open + 1;
      break;
    }
  }
  if (at == std::string::npos)
    return result;
  result.found = true;
  int depth = 0;
  std::string current;
  for (; at < header.size(); ++at) {
    char c = header[at];
    if (c == '(')
      ++depth;
    if (c == ')' && depth-- == 0)
      break;
    if (c == ',' && depth == 0) {
      result.parameters.push_back(current);
      current.clear();
      continue;
    }
    current += c;
  }
  result.parameters.push_back(current);
  return result;
}

/// For `#define name MACRO(target)`: MACRO and target; empty if absent.
std::pair<std::string, std::string> macroOf(const std::string &header, const std::string &name) {
  for (std::size_t at = header.find("#define"); at != std::string::npos;
       at = header.find("#define", at + 1)) {
    std::size_t word = skipSpaces(header, at + 7);
    if (header.compare(word, name.size(), name) != 0 ||
        !std::isspace(static_cast<unsigned char>(header[word + name.size()])))
      continue;
    std::size_t end = header.find('\n', word);
    std::string body = header.substr(word + name.size(), end - word - name.size());
    std::size_t first = body.find_first_not_of(" \t");
    if (first == std::string::npos)
      continue;
    body = body.substr(first);
    std::size_t open = body.find('(');
    if (open == std::string::npos)
      return {"", body.substr(0, body.find_first_of(" \t\r"))};
    return {body.substr(0, open), body.substr(open + 1, body.find(')') - open - 1)};
  }
  return {};
}

bool hasWord(const std::string &text, const std::string &word) {
  return findWord(text, word) != std::string::npos;
}

class ApiTableHeaders : public ::testing::Test {
protected:
  void SetUp() override {
    runtime_ = readHeader("cuda_runtime_api.h");
    driver_ = readHeader("cuda.h");
    if (runtime_.empty() || driver_.empty())
      GTEST_SKIP() << "no CUDA toolkit headers under " << toolkit();
    std::string value = macroOf(runtime_, "CUDART_VERSION").second;
    version_ = value.empty() ? 0 : std::atoi(value.c_str());
  }
  std::string runtime_, driver_;
  int version_ = 0;
};

TEST_F(ApiTableHeaders, EveryRowMatchesItsDeclaration) {
  ASSERT_GE(version_, 13000) << "the table states CUDA 13's API";
  for (const ApiInfo &info : allApis()) {
    std::string name(info.name);
    SCOPED_TRACE(name);
    bool runtime = info.family == Family::Runtime;
    const std::string &header = runtime ? runtime_ : driver_;
    std::string declared = name + std::string(info.version);
    if (name == "__cudaLaunchKernel" || name == "cudaLaunchKernelEx")
      continue; // nvcc's launch lowering; a C++ template over ExC
    // cuda.h declares `cuMemAlloc(` and maps it with `#define cuMemAlloc
    // cuMemAlloc_v2`; some declarations spell the versioned name.
    const char *api = runtime ? "CUDARTAPI" : "CUDAAPI";
    Declaration declaration = declarationOf(header, api, declared);
    if (!declaration.found)
      declaration = declarationOf(header, api, name);
    if (info.removed) {
      EXPECT_FALSE(declaration.found) << "removed in CUDA 13 but declared";
      continue;
    }
    EXPECT_TRUE(declaration.found) << declared << " is not declared";
    if (!declaration.found)
      continue;
    const std::vector<std::string> &parameters = declaration.parameters;
    // The stream argument: the only cudaStream_t / CUstream parameter.
    int streamIndex = -1;
    for (std::size_t i = 0; i < parameters.size(); ++i)
      if (hasWord(parameters[i], "cudaStream_t") || hasWord(parameters[i], "CUstream"))
        streamIndex = static_cast<int>(i);
    if (info.stream != StreamDefault::InConfig)
      EXPECT_EQ(streamIndex, info.streamIndex);
    if (streamIndex >= 0) {
      bool defaulted = parameters[streamIndex].find("__dv(") != std::string::npos;
      EXPECT_EQ(defaulted, info.stream == StreamDefault::Null);
    }
    auto parameter = [&](int index) {
      return index >= 0 && index < static_cast<int>(parameters.size()) ? parameters[index]
                                                                       : std::string("<none>");
    };
    if (info.kindIndex >= 0)
      EXPECT_TRUE(hasWord(parameter(info.kindIndex), "cudaMemcpyKind"));
    for (int host : {info.hostSource, info.hostDestination})
      if (host >= 0)
        EXPECT_NE(parameter(host).find("void *"), std::string::npos) << parameter(host);
    if (info.callbackIndex >= 0)
      EXPECT_TRUE(std::regex_search(parameter(info.callbackIndex),
                                    std::regex("(Fn|Callback)(_t)?\\b")))
          << parameter(info.callbackIndex);
    // Per-thread spelling: the macro the header defines under PTDS.
    auto [macro, target] = macroOf(header, name);
    std::string prefix = runtime ? "__CUDART_API_PT" : "__CUDA_API_PT";
    bool perThreadMacro = macro.rfind(prefix, 0) == 0 && target == declared;
    switch (info.perThread) {
    case PerThreadSpelling::None:
      EXPECT_FALSE(perThreadMacro) << "the header has a per-thread spelling";
      if (!info.version.empty())
        EXPECT_EQ(target, declared) << "the header does not map to the versioned name";
      break;
    case PerThreadSpelling::Ptsz:
    case PerThreadSpelling::Ptds:
      EXPECT_TRUE(perThreadMacro) << "no per-thread macro: " << macro << "(" << target << ")";
      EXPECT_EQ(macro, prefix + (info.perThread == PerThreadSpelling::Ptsz ? "SZ" : "DS"));
      break;
    }
  }
}

} // namespace
} // namespace streamlint::api
