#include "coalesce/verify/predictions.h"

#include "coalesce/records/fields.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <type_traits>

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

// Reads a record's keys as lib/report/src/json_writer.cpp wrote them, walking the same field
// list (coalesce/records/fields.h): internal fields are not in the report and the derived
// figure keys are read by hand below. A key that is absent or null leaves the record's
// value as the caller set it (hand-made files, test/verify/make_predictions.py, give few);
// a number or boolean of the wrong type is an error; a string of the wrong type, or a name
// this build does not know, reads as absent.
class ReportFieldReader {
 public:
  explicit ReportFieldReader(const json& object) : object_(object) {}

  template <class T>
  void field(std::string_view name, T& out, unsigned flags = kPlainField) {
    if (flags & kInternalField) return;
    auto it = object_.find(name);
    if (it == object_.end() || it->is_null()) return;
    const json& v = *it;
    if constexpr (std::is_same_v<T, std::string>) {
      if (v.is_string()) out = v.get<std::string>();
    } else if constexpr (std::is_same_v<T, bool>) {
      if (!v.is_boolean()) throw std::runtime_error("field \"" + std::string(name) + "\" is not a boolean");
      out = v.get<bool>();
    } else if constexpr (std::is_arithmetic_v<T>) {
      if (!v.is_number()) throw std::runtime_error("field \"" + std::string(name) + "\" is not a number");
      out = v.get<T>();
    } else if constexpr (std::is_enum_v<T>) {
      if (v.is_string())
        if (auto e = parseName(v.get<std::string>(), std::type_identity<T>{})) out = *e;
    } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
      if (v.is_array()) {
        out.clear();
        for (const json& s : v)
          if (s.is_string()) out.push_back(s.get<std::string>());
      }
    } else if constexpr (std::is_same_v<T, std::vector<int>>) {
      if (v.is_array()) {
        out.clear();
        for (const json& n : v)
          if (n.is_number_integer()) out.push_back(n.get<int>());
      }
    } else if constexpr (std::is_same_v<T, model::LanePattern>) {
      // The writer's "pattern" (the kind's name) and "lane_strides" keys.
      if (v.is_string())
        if (auto kind = model::parsePatternKind(v.get<std::string>())) out.kind = *kind;
      if (auto strides = object_.find("lane_strides"); strides != object_.end() && strides->is_object()) {
        ReportFieldReader child(*strides);
        describeFields(child, out.affine);
      }
    } else if constexpr (std::is_same_v<T, model::AccessFigures>) {
      // Derived keys, not the model's figures: read into PredictedAccess by hand.
    } else if constexpr (std::is_class_v<T> && !kIsVector<T>) {
      if (v.is_object()) {
        ReportFieldReader child(v);
        describeFields(child, out);
      }
    } else {
      static_assert(sizeof(T) == 0, "lists of records are read one by one (predictionsFromJson)");
    }
  }

 private:
  const json& object_;
};

template <class Record>
Record readRecord(const json& o, Record record = {}) {
  ReportFieldReader reader(o);
  describeFields(reader, record);
  return record;
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
      if (text(o, "file").empty()) throw std::runtime_error("no \"file\"");
      if (!o.contains("line") || !o["line"].is_number_unsigned()) throw std::runtime_error("no \"line\"");
      const auto space = model::parseSpace(text(o, "space"));
      if (!space) throw std::runtime_error("unknown \"space\" \"" + text(o, "space") + "\"");
      if (*space != model::Space::Global && *space != model::Space::Shared) continue;
      if (!model::parseKind(text(o, "kind"))) throw std::runtime_error("unknown \"kind\" \"" + text(o, "kind") + "\"");
      AccessSite site;
      site.access.bytesPerLane = 0;  // what a file without "bytes" means
      site = readRecord(o, std::move(site));
      PredictedAccess a;
      a.file = site.loc.file;
      a.line = site.loc.line;
      a.column = site.loc.column;
      a.kernel = site.kernel;
      a.space = site.access.space;
      a.kind = site.access.kind;
      a.bytes = site.access.bytesPerLane;
      // As written: the verify report passes it through, names this build does not know too.
      a.pattern = text(o, "pattern");
      a.expression = site.expression;
      a.lanes = site.access.pattern;
      if (auto b = o.find("block"); b != o.end() && b->is_object()) a.block = site.block.dim;
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
        if (text(o, "file").empty()) throw std::runtime_error("no \"file\"");
        if (!o.contains("line") || !o["line"].is_number_unsigned()) throw std::runtime_error("no \"line\"");
        auto count = [&](const char* key) -> uint64_t {
          auto it = o.find(key);
          if (it == o.end() || !it->is_number_unsigned())
            throw std::runtime_error(std::string("no \"") + key + "\" count");
          return it->get<uint64_t>();
        };
        PredictedBranch b;
        b.warpRequests = count("warp_requests");
        b.divergentRequests = count("divergent_requests");
        BranchSite site;
        site.evaluated = true;      // what a file without "evaluated" means
        site.block.dim = {0, 0, 0};  // and one without "block"
        site = readRecord(o, std::move(site));
        b.id = o.contains("id") && o["id"].is_number_unsigned() ? static_cast<unsigned>(site.id)
                                                                 : static_cast<unsigned>(index);
        b.file = site.loc.file;
        b.line = site.loc.line;
        b.column = site.loc.column;
        b.kernel = site.kernel;
        b.function = site.function;
        b.kind = text(o, "kind");  // as written, like an access's pattern
        b.condition = site.condition;
        b.evaluated = site.evaluated;
        b.threadDependent = site.threadDependent;
        b.onlyPartialWarps = site.onlyPartialWarps;
        b.blockX = static_cast<unsigned>(site.block.dim.x);
        b.blockY = static_cast<unsigned>(site.block.dim.y);
        b.blockZ = static_cast<unsigned>(site.block.dim.z);
        p.branches.push_back(std::move(b));
      } catch (const std::exception& e) {
        throw std::runtime_error("predictions: branch " + std::to_string(index) + ": " + e.what());
      }
    }
  }
  if (auto ks = j.find("kernels"); ks != j.end() && ks->is_array()) {
    for (const json& o : *ks) {
      if (!o.is_object() || !o.contains("block") || !o["block"].is_object()) continue;
      const json& b = o["block"];
      p.kernels.push_back({o.value("name", ""), b.value("x", 0u), b.value("y", 0u), b.value("z", 0u),
                           b.value("source", "")});
    }
  }
  if (auto ba = j.find("barriers"); ba != j.end() && ba->is_array()) {
    for (const json& o : *ba) {
      if (!o.is_object() || !o.contains("line") || !o["line"].is_number_unsigned()) continue;
      const BarrierSite site = readRecord<BarrierSite>(o);
      p.barriers.push_back({site.loc.file, site.loc.line, site.kernel});
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
