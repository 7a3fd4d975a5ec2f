// The launcher's per-translation-unit result files (result_file.h).
#include "coalesce/analysis/result_file.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <fstream>
#include <sstream>

#include "coalesce/analysis/worker.h"
#include "result_cache.h"

namespace coalesce::analysis {

namespace json = llvm::json;

namespace {
constexpr const char* kFormat = "coalesce-lint-result/1";
}

bool writeFileAtomically(const std::string& path, const std::string& text) {
  return ResultCache::writeAtomically(path, text);
}

bool writeResultFile(const std::string& path, const ResultFile& result, std::string& error) {
  json::Array inputs;
  for (const std::string& i : result.inputs) inputs.push_back(i);
  json::Object header{{"format", kFormat},
                      {"arch", result.arch},
                      {"source", result.source},
                      {"inputs", std::move(inputs)}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << json::Value(std::move(header)) << '\n' << recordsToJson(result.records);
  os.flush();
  if (!writeFileAtomically(path, text)) {
    error = path + ": cannot write the result file";
    return false;
  }
  return true;
}

std::optional<ResultFile> readResultFile(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream all;
  if (!in || !(all << in.rdbuf())) {
    error = path + ": cannot read the result file";
    return std::nullopt;
  }
  const std::string text = all.str();
  const size_t newline = text.find('\n');
  auto header = json::parse(llvm::StringRef(text.data(), newline == std::string::npos ? text.size() : newline));
  const json::Object* h = header ? header->getAsObject() : nullptr;
  if (!header) llvm::consumeError(header.takeError());
  if (!h || h->getString("format") != kFormat || newline == std::string::npos) {
    error = path + ": not a coalesce-lint result file (expected a " + kFormat + " header line)";
    return std::nullopt;
  }
  ResultFile r;
  r.arch = h->getString("arch").value_or("").str();
  r.source = h->getString("source").value_or("").str();
  if (const json::Array* inputs = h->getArray("inputs"))
    for (const json::Value& v : *inputs)
      if (auto s = v.getAsString()) r.inputs.push_back(s->str());
  if (std::string why = recordsFromJson(std::string_view(text).substr(newline + 1), r.records); !why.empty()) {
    error = path + ": its records cannot be read: " + why;
    return std::nullopt;
  }
  return r;
}

}  // namespace coalesce::analysis
