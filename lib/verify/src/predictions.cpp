#include "coalesce/verify/predictions.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace coalesce::verify {

using nlohmann::json;

namespace {

std::optional<double> number(const json& o, const char* key) {
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) return std::nullopt;
  if (!it->is_number()) throw std::runtime_error(std::string("field \"") + key + "\" is not a number");
  return it->get<double>();
}

std::optional<Range> range(const json& o, const char* key) {
  auto it = o.find(key);
  if (it == o.end() || it->is_null()) return std::nullopt;
  if (!it->is_array() || it->size() != 2 || !(*it)[0].is_number() || !(*it)[1].is_number())
    throw std::runtime_error(std::string("field \"") + key + "\" is not [lo, hi]");
  return Range{(*it)[0].get<double>(), (*it)[1].get<double>()};
}

std::string text(const json& o, const char* key) {
  auto it = o.find(key);
  return (it == o.end() || !it->is_string()) ? std::string() : it->get<std::string>();
}

}  // namespace

Predictions predictionsFromJson(const std::string& input) {
  json j;
  try {
    j = json::parse(input);
  } catch (const json::parse_error& e) {
    throw std::runtime_error(std::string("predictions: not valid JSON: ") + e.what());
  }
  if (!j.is_object()) throw std::runtime_error("predictions: expected a JSON object");
  Predictions p;
  // The analyzer (lib/report) names the format in "version"; older hand-made files
  // (test/verify/make_predictions.py) in "schema". Either is accepted.
  p.schema = text(j, "schema");
  if (p.schema.empty()) p.schema = text(j, "version");
  if (p.schema != kPredictionsSchema)
    throw std::runtime_error("predictions: expected schema \"" + std::string(kPredictionsSchema) + "\", found \"" +
                             p.schema + "\"");
  auto acc = j.find("accesses");
  if (acc == j.end() || !acc->is_array()) throw std::runtime_error("predictions: no \"accesses\" array");
  for (size_t index = 0; index < acc->size(); ++index) {
    const json& o = (*acc)[index];
    try {
      if (!o.is_object()) throw std::runtime_error("not an object");
      PredictedAccess a;
      a.file = text(o, "file");
      if (a.file.empty()) throw std::runtime_error("no \"file\"");
      if (!o.contains("line") || !o["line"].is_number_unsigned()) throw std::runtime_error("no \"line\"");
      a.line = o["line"].get<unsigned>();
      a.column = o.value("column", 0u);
      a.kernel = text(o, "kernel");
      const auto space = model::parseSpace(text(o, "space"));
      if (!space) throw std::runtime_error("unknown \"space\" \"" + text(o, "space") + "\"");
      if (*space != model::Space::Global && *space != model::Space::Shared) continue;
      a.space = *space;
      const auto kind = model::parseKind(text(o, "kind"));
      if (!kind) throw std::runtime_error("unknown \"kind\" \"" + text(o, "kind") + "\"");
      a.kind = *kind;
      a.bytes = o.contains("bytes") && o["bytes"].is_number() ? o["bytes"].get<int>() : 0;
      a.pattern = text(o, "pattern");
      a.expression = text(o, "expression");
      a.sectorsPerRequest = number(o, "sectors_per_request");
      a.idealSectors = number(o, "ideal_sectors");
      a.efficiency = number(o, "efficiency");
      a.sectorsRange = range(o, "sectors_range");
      a.wavefronts = number(o, "wavefronts");
      a.idealWavefronts = number(o, "ideal_wavefronts");
      a.conflictDegree = number(o, "conflict_degree");
      a.wavefrontsRange = range(o, "wavefronts_range");
      p.accesses.push_back(std::move(a));
    } catch (const std::exception& e) {
      throw std::runtime_error("predictions: access " + std::to_string(index) + ": " + e.what());
    }
  }
  // Branches (optional: older analyzers and hand-made files have none).
  if (auto br = j.find("branches"); br != j.end() && !br->is_null()) {
    if (!br->is_array()) throw std::runtime_error("predictions: \"branches\" is not an array");
    for (size_t index = 0; index < br->size(); ++index) {
      const json& o = (*br)[index];
      try {
        if (!o.is_object()) throw std::runtime_error("not an object");
        PredictedBranch b;
        b.id = o.contains("id") && o["id"].is_number_unsigned() ? o["id"].get<unsigned>()
                                                                 : static_cast<unsigned>(index);
        b.file = text(o, "file");
        if (b.file.empty()) throw std::runtime_error("no \"file\"");
        if (!o.contains("line") || !o["line"].is_number_unsigned()) throw std::runtime_error("no \"line\"");
        b.line = o["line"].get<unsigned>();
        b.column = o.value("column", 0u);
        b.kernel = text(o, "kernel");
        b.function = text(o, "function");
        b.kind = text(o, "kind");
        b.condition = text(o, "condition");
        b.evaluated = o.value("evaluated", true);
        b.threadDependent = o.value("thread_dependent", false);
        auto count = [&](const char* key) -> uint64_t {
          auto it = o.find(key);
          if (it == o.end() || !it->is_number_unsigned())
            throw std::runtime_error(std::string("no \"") + key + "\" count");
          return it->get<uint64_t>();
        };
        b.warpRequests = count("warp_requests");
        b.divergentRequests = count("divergent_requests");
        b.onlyPartialWarps = o.value("only_partial_warps", false);
        if (auto blk = o.find("block"); blk != o.end() && blk->is_object()) {
          b.blockX = blk->value("x", 0u);
          b.blockY = blk->value("y", 0u);
          b.blockZ = blk->value("z", 0u);
        }
        p.branches.push_back(std::move(b));
      } catch (const std::exception& e) {
        throw std::runtime_error("predictions: branch " + std::to_string(index) + ": " + e.what());
      }
    }
  }
  if (auto ba = j.find("barriers"); ba != j.end() && ba->is_array()) {
    for (const json& o : *ba) {
      if (!o.is_object() || !o.contains("line") || !o["line"].is_number_unsigned()) continue;
      p.barriers.push_back({text(o, "file"), o["line"].get<unsigned>(), text(o, "kernel")});
    }
  }
  return p;
}

Predictions loadPredictions(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("predictions: cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return predictionsFromJson(ss.str());
}

}  // namespace coalesce::verify
