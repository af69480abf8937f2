#include "LibrarySymbols.h"

#include "api/CudaApiTable.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"

#include <algorithm>
#include <optional>

namespace streamlint::probe {

std::string libraryCallName(const std::string &symbol) {
  std::string name = llvm::demangle(symbol);
  if (name != symbol || name.find("::") != std::string::npos) {
    // C++: keep the qualified name, drop the parameters and return type.
    int depth = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
      char c = name[i];
      depth += c == '<' ? 1 : c == '>' ? -1 : 0;
      if (c == '(' && depth == 0 && i > 0) {
        name.resize(i);
        break;
      }
    }
    // A return type spelled before the name ("void at::foo"): keep the name.
    std::size_t space = std::string::npos;
    depth = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
      char c = name[i];
      depth += c == '<' ? 1 : c == '>' ? -1 : 0;
      if (c == ' ' && depth == 0)
        space = i;
    }
    if (space != std::string::npos)
      name = name.substr(space + 1);
    return name;
  }
  if (name.rfind("pnccl", 0) == 0)
    name = name.substr(1);
  return std::string(api::parseApiName(name).base);
}

namespace {
/// The function symbol of `file` nearest below `address` that contains it,
/// from .dynsym, else .symtab; false when neither has one.
bool scanElf64(const llvm::object::ELFFile<llvm::object::ELF64LE> &file, std::uint64_t address,
               std::string &name) {
  auto sections = file.sections();
  if (!sections) {
    llvm::consumeError(sections.takeError());
    return false;
  }
  for (unsigned type : {llvm::ELF::SHT_DYNSYM, llvm::ELF::SHT_SYMTAB}) {
    for (const auto &section : *sections) {
      if (section.sh_type != type)
        continue;
      auto symbols = file.symbols(&section);
      auto strings = file.getStringTableForSymtab(section);
      if (!symbols || !strings) {
        if (!symbols) llvm::consumeError(symbols.takeError());
        if (!strings) llvm::consumeError(strings.takeError());
        continue;
      }
      const llvm::object::ELF64LE::Sym *best = nullptr;
      for (const auto &symbol : *symbols) {
        std::uint64_t start = symbol.st_value, size = symbol.st_size;
        if (symbol.getType() != llvm::ELF::STT_FUNC || start == 0 || start > address ||
            (best && start < best->st_value) || (size != 0 && address >= start + size))
          continue;
        best = &symbol;
      }
      if (!best)
        continue;
      auto found = best->getName(*strings);
      if (!found) {
        llvm::consumeError(found.takeError());
        continue;
      }
      name = found->str();
      return true;
    }
  }
  return false;
}
} // namespace

struct LibrarySymbols::Opened {
  llvm::object::OwningBinary<llvm::object::ObjectFile> binary;
  const llvm::object::ELFObjectFileBase *elf = nullptr;
};

LibrarySymbols::LibrarySymbols() = default;
LibrarySymbols::~LibrarySymbols() = default;

LibrarySymbols::Opened *LibrarySymbols::open(const std::string &object) {
  auto [it, inserted] = objects_.try_emplace(object);
  if (!inserted)
    return it->second.get();
  auto binary = llvm::object::ObjectFile::createObjectFile(object);
  if (!binary) {
    llvm::consumeError(binary.takeError());
    return nullptr;
  }
  auto opened = std::make_unique<Opened>();
  opened->binary = std::move(*binary);
  opened->elf = llvm::dyn_cast<llvm::object::ELFObjectFileBase>(opened->binary.getBinary());
  if (!opened->elf)
    return nullptr;
  it->second = std::move(opened);
  return it->second.get();
}

const std::string &LibrarySymbols::functionAt(const std::string &object,
                                              std::uintptr_t address) {
  auto [answer, inserted] = answers_.try_emplace({object, address});
  if (!inserted)
    return answer->second;
  Opened *opened = open(object);
  if (!opened)
    return answer->second;
  // The function symbol starting nearest below `address` that contains it.
  auto scan = [&](auto range) {
    std::uint64_t bestStart = 0;
    std::optional<llvm::object::ELFSymbolRef> best;
    for (const llvm::object::ELFSymbolRef &symbol : range) {
      if (symbol.getELFType() != llvm::ELF::STT_FUNC)
        continue;
      auto start = symbol.getValue();
      if (!start) {
        llvm::consumeError(start.takeError());
        continue;
      }
      std::uint64_t size = symbol.getSize();
      if (*start == 0 || *start > address || *start < bestStart ||
          (size != 0 && address >= *start + size))
        continue;
      bestStart = *start;
      best = symbol;
    }
    if (!best)
      return false;
    auto name = best->getName();
    if (!name) {
      llvm::consumeError(name.takeError());
      return false;
    }
    answer->second = name->str();
    return true;
  };
  // 64-bit little-endian (x86-64, aarch64): the symbol tables read as the
  // plain arrays they are, a few ns a symbol (libtorch_cuda.so has some
  // hundred thousand); other ELF classes through the generic iterators.
  if (const auto *elf64 = llvm::dyn_cast<llvm::object::ELF64LEObjectFile>(opened->elf)) {
    if (scanElf64(elf64->getELFFile(), address, answer->second))
      return answer->second;
  }
  if (!scan(opened->elf->getDynamicSymbolIterators()))
    scan(opened->elf->symbols());
  return answer->second;
}

} // namespace streamlint::probe
