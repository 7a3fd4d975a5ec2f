// Baseline files: JSON through llvm::json, with a version so the format can change.
#include "coalesce/report/baseline.h"

#include <algorithm>
#include <fstream>
#include <limits>

#include <fmt/format.h>
#include <llvm/Support/JSON.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "coalesce/report/source_reader.h"
#include "paths.h"

namespace coalesce::report {

namespace json = llvm::json;

std::string normaliseBaselinePath(std::string_view path) { return detail::normalisePath(path); }

namespace {
constexpr int64_t kMaxBaselineCount = 1'000'000'000;

// The file is JSON, which holds UTF-8 only: text that is not (a Latin-1 comment on the
// line, a file name) is keyed as the JSON writer would store it, invalid bytes replaced,
// on both sides, so a baseline written from such a line matches it again (it never did).
std::string utf8(std::string text) { return json::isUTF8(text) ? text : json::fixUTF8(text); }

auto keyOf(const Finding& f) {
  return std::make_tuple(utf8(f.rule), utf8(normaliseBaselinePath(f.loc.file)), utf8(std::string(trimmed(f.lineText))));
}
}  // namespace

Baseline Baseline::fromFindings(const std::vector<Finding>& findings) {
  std::map<std::tuple<std::string, std::string, std::string>, int> counts;
  for (const Finding& f : findings) ++counts[keyOf(f)];
  Baseline b;
  for (const auto& [key, count] : counts)
    b.entries_.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), count});
  return b;
}

Result<Baseline> Baseline::parse(std::string_view text, const std::string& origin) {
  auto bad = [&](std::string_view why) {
    return ReportError{fmt::format("{}: not a coalesce-lint baseline: {}", origin, why)};
  };
  llvm::Expected<json::Value> parsed = json::parse(llvm::StringRef(text.data(), text.size()));
  if (!parsed) return bad(llvm::toString(parsed.takeError()));
  const json::Object* top = parsed->getAsObject();
  if (!top) return bad("expected a JSON object");
  const std::optional<int64_t> version = top->getInteger("version");
  if (!version) return bad("missing integer 'version'");
  if (*version != kBaselineVersion)
    return ReportError{fmt::format("{}: baseline version {} is not supported (this coalesce-lint reads version {})",
                                   origin, *version, kBaselineVersion)};
  const json::Array* entries = top->getArray("entries");
  if (!entries) return bad("missing array 'entries'");
  Baseline b;
  for (size_t i = 0; i < entries->size(); ++i) {
    const json::Object* e = (*entries)[i].getAsObject();
    auto rule = e ? e->getString("rule") : std::nullopt;
    auto path = e ? e->getString("path") : std::nullopt;
    auto line = e ? e->getString("line_text") : std::nullopt;
    if (!rule || !path || !line) return bad(fmt::format("entry {} needs strings 'rule', 'path' and 'line_text'", i));
    if (e->get("count") && !e->getInteger("count"))
      return bad(fmt::format("entry {} has a count that is not an integer", i));
    const int64_t count = e->getInteger("count").value_or(1);
    if (count < 1) return bad(fmt::format("entry {} has a count below 1", i));
    // A count past an int used to wrap negative (and then never match, nor read back).
    if (count > kMaxBaselineCount) return bad(fmt::format("entry {} has a count above {}", i, kMaxBaselineCount));
    b.entries_.push_back({rule->str(), normaliseBaselinePath(*path), std::string(trimmed(*line)), static_cast<int>(count)});
  }
  return b;
}

Result<Baseline> Baseline::load(const std::string& path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) return ReportError{fmt::format("{}: cannot read baseline: {}", path, buffer.getError().message())};
  return parse((*buffer)->getBuffer(), path);
}

std::string Baseline::toJson() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  json::OStream j(os, 2);
  j.object([&] {
    j.attribute("version", kBaselineVersion);
    j.attribute("tool", "coalesce-lint");
    j.attributeArray("entries", [&] {
      for (const BaselineEntry& e : entries_)
        j.object([&] {
          j.attribute("rule", e.rule);
          j.attribute("path", e.path);
          j.attribute("line_text", e.lineText);
          j.attribute("count", e.count);
        });
    });
  });
  os << "\n";
  return text;
}

MaybeError Baseline::save(const std::string& path) const {
  std::ofstream out(path, std::ios::binary);
  out << toJson();
  out.close();
  if (!out) return ReportError{fmt::format("{}: cannot write baseline", path)};
  return std::nullopt;
}

BaselineMatcher::BaselineMatcher(const Baseline& baseline) {
  // Entries with the same key add up, saturating rather than overflowing.
  for (const BaselineEntry& e : baseline.entries()) {
    int& left = remaining_[{e.rule, e.path, e.lineText}];
    left = static_cast<int>(std::min<int64_t>(int64_t{left} + e.count, std::numeric_limits<int>::max()));
  }
}

bool BaselineMatcher::consume(const Finding& finding) {
  auto it = remaining_.find(keyOf(finding));
  if (it == remaining_.end() || it->second == 0) return false;
  --it->second;
  return true;
}

}  // namespace coalesce::report
