#include "analyzer/driver/ConfigCommands.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

namespace streamlint {

llvm::Error dumpEffectiveConfig(const AnalyzerOptions &options,
                                const CheckRegistry &registry, llvm::raw_ostream &out) {
  OptionCatalog catalog = registry.optionCatalog();
  ConfigResolver resolver(options.config.value_or(ConfigOverrides{}), catalog.checks, catalog);
  llvm::SmallString<256> where;
  llvm::sys::fs::current_path(where);
  auto config = options.files.empty() ? resolver.configForDirectory(where)
                                      : resolver.configFor(options.files.front());
  if (!config)
    return config.takeError();
  dumpConfig(*config, options.files.empty() ? where.str() : options.files.front(), out,
             catalog);
  return llvm::Error::success();
}

std::string skippedFilesNote(const AnalysisPlan &plan) {
  if (plan.skippedFiles.empty())
    return "";
  llvm::SmallString<256> cwd;
  llvm::sys::fs::current_path(cwd);
  llvm::StringRef database = plan.databasePath;
  if (database.consume_front(cwd) && !database.empty() &&
      llvm::sys::path::is_separator(database.front()))
    database = database.drop_front();
  else
    database = plan.databasePath;
  size_t count = plan.skippedFiles.size();
  std::string note = "streamlint: skipped " + std::to_string(count) +
                     (count == 1 ? " file" : " files") + " not in " + database.str() + ":";
  for (const std::string &file : plan.skippedFiles)
    note += " " + file;
  return note;
}

} // namespace streamlint
