#include "coalesce/verify/measurements.h"

#include <cxxabi.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace coalesce::verify {

using nlohmann::json;
using nlohmann::ordered_json;

std::string demangledName(const std::string& mangled) {
  int status = 0;
  char* d = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  std::string out = (status == 0 && d) ? d : "";
  std::free(d);
  return out;
}

const char* toString(ErrorKind k) {
  switch (k) {
    case ErrorKind::None: return "none";
    case ErrorKind::NoGpu: return "no-gpu";
    case ErrorKind::NoCupti: return "no-cupti";
    case ErrorKind::NoPermission: return "no-permission";
    case ErrorKind::UnsupportedDevice: return "unsupported-device";
    case ErrorKind::CuptiError: return "cupti-error";
    case ErrorKind::NoOutput: return "no-output";
  }
  return "none";
}

ErrorKind errorKindFromString(const std::string& s) {
  for (ErrorKind k : {ErrorKind::None, ErrorKind::NoGpu, ErrorKind::NoCupti, ErrorKind::NoPermission,
                      ErrorKind::UnsupportedDevice, ErrorKind::CuptiError, ErrorKind::NoOutput})
    if (s == toString(k)) return k;
  return ErrorKind::CuptiError;
}

ErrorKind errorKindForCuptiResult(int result) {
  switch (result) {
    case 35:  // CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
    case 40:  // CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES
      return ErrorKind::NoPermission;
    case 27:  // CUPTI_ERROR_NOT_SUPPORTED
    case 2:   // CUPTI_ERROR_INVALID_DEVICE
      return ErrorKind::UnsupportedDevice;
    default: return ErrorKind::CuptiError;
  }
}

std::string cuptiFailureMessage(int result, const std::string& what, const std::string& cuptiText) {
  switch (errorKindForCuptiResult(result)) {
    case ErrorKind::NoPermission:
      return "no permission to read GPU performance counters (ERR_NVGPUCTRPERM, " + what +
             "): run as root or load the driver with NVreg_RestrictProfilingToAdminUsers=0";
    case ErrorKind::UnsupportedDevice:
      return "this GPU does not support CUPTI SASS metrics (" + what + ": " + cuptiText + ")";
    default: return what + " failed: " + cuptiText;
  }
}

namespace {

// Appends `,\n "key": [` and one compact JSON object per line (what toJson writes for its long
// arrays, so that recorded files diff well), closed as `]` when empty.
template <typename T, typename ToJson>
void appendArrayOnePerLine(std::string& text, const char* key, const std::vector<T>& items, ToJson toJson) {
  text += std::string(",\n \"") + key + "\": [";
  for (size_t i = 0; i < items.size(); ++i) {
    text += i ? ",\n  " : "\n  ";
    text += toJson(items[i]).dump();
  }
  text += items.empty() ? "]" : "\n ]";
}

}  // namespace

std::string toJson(const Measurements& m) {
  ordered_json head;
  head["schema"] = kMeasurementsSchema;
  head["status"] = m.status;
  head["error_kind"] = toString(m.errorKind);
  head["error"] = m.error;
  head["device"] = ordered_json{{"name", m.device.name}, {"chip", m.device.chip}, {"sm", m.device.sm}};
  head["metrics"] = m.metricsCollected;
  if (!m.availableMetrics.empty()) head["available_metrics"] = m.availableMetrics;
  head["kernel_launches"] = m.kernelLaunches;
  head["dropped_records"] = m.droppedRecords;
  if (m.processes > 1) head["processes"] = m.processes;
  if (!m.sampling.empty()) {
    head["sampling"] = m.sampling;
    head["launches_measured"] = m.launchesMeasured;
    if (m.configsOverCap) head["configs_over_cap"] = m.configsOverCap;
    ordered_json configs = ordered_json::array();
    for (const LaunchConfig& c : m.launchConfigs)
      configs.push_back(ordered_json{{"kernel", c.kernel}, {"grid", c.grid}, {"block", c.block},
                                     {"shared_bytes", c.sharedBytes}, {"args", c.args}, {"arg_sizes", c.argSizes},
                                     {"launches", c.launches}, {"measured", c.measured}});
    head["launch_configs"] = configs;
  }
  head["notes"] = m.notes;
  if (!m.kernelResources.empty()) {
    ordered_json resources = ordered_json::array();
    for (const KernelResources& r : m.kernelResources)
      resources.push_back(ordered_json{{"kernel", r.kernel}, {"registers", r.registers}, {"shared_bytes", r.sharedBytes},
                                       {"stack_bytes", r.stackBytes}, {"local_bytes", r.localBytes}});
    head["kernel_resources"] = resources;
  }
  // Write the head, then one instruction per line, so the recorded files diff well.
  std::string text = head.dump(1);
  text.pop_back();  // the closing brace
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  appendArrayOnePerLine(text, "instructions", m.instructions, [](const MeasuredInstruction& in) {
    ordered_json o;
    o["crc"] = in.moduleCrc;
    o["function"] = in.function;
    o["demangled"] = in.demangled;
    o["pc"] = in.pc;
    o["file"] = in.file;
    o["line"] = in.line;
    if (!in.inlinedAt.empty()) {
      ordered_json chain = ordered_json::array();
      for (const auto& [f, l] : in.inlinedAt) chain.push_back(ordered_json{{"file", f}, {"line", l}});
      o["inlined_at"] = chain;
    }
    if (!in.opcode.empty()) o["opcode"] = in.opcode;
    o["metrics"] = in.metrics;
    return o;
  });
  if (!m.configCounters.empty())
    appendArrayOnePerLine(text, "config_counters", m.configCounters, [](const ConfigCounters& c) {
      return ordered_json{{"config", c.config}, {"instruction", c.instruction}, {"metrics", c.metrics}};
    });
  text += "\n}\n";
  return text;
}

Measurements measurementsFromJson(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw std::runtime_error(std::string("measurements: not valid JSON: ") + e.what());
  }
  if (!j.is_object() || j.value("schema", "") != kMeasurementsSchema)
    throw std::runtime_error(std::string("measurements: expected schema \"") + kMeasurementsSchema + "\"");
  Measurements m;
  try {
    m.status = j.value("status", "ok");
    m.errorKind = errorKindFromString(j.value("error_kind", "none"));
    m.error = j.value("error", "");
    if (j.contains("device") && j["device"].is_object()) {
      const json& d = j["device"];
      m.device.name = d.value("name", "");
      m.device.chip = d.value("chip", "");
      m.device.sm = d.value("sm", 0);
    }
    if (j.contains("metrics")) m.metricsCollected = j["metrics"].get<std::vector<std::string>>();
    if (j.contains("available_metrics")) m.availableMetrics = j["available_metrics"].get<std::vector<std::string>>();
    m.kernelLaunches = j.value("kernel_launches", uint64_t{0});
    m.droppedRecords = j.value("dropped_records", uint64_t{0});
    m.processes = j.value("processes", uint64_t{1});
    m.sampling = j.value("sampling", "");
    m.launchesMeasured = j.value("launches_measured", m.kernelLaunches);
    m.configsOverCap = j.value("configs_over_cap", uint64_t{0});
    if (j.contains("launch_configs"))
      for (const json& o : j["launch_configs"]) {
        LaunchConfig c;
        c.kernel = o.value("kernel", "");
        if (o.contains("grid")) c.grid = o["grid"].get<std::array<uint32_t, 3>>();
        if (o.contains("block")) c.block = o["block"].get<std::array<uint32_t, 3>>();
        c.sharedBytes = o.value("shared_bytes", 0u);
        c.args = o.value("args", "");
        if (o.contains("arg_sizes")) c.argSizes = o["arg_sizes"].get<std::vector<uint32_t>>();
        c.launches = o.value("launches", uint64_t{0});
        c.measured = o.value("measured", false);
        m.launchConfigs.push_back(std::move(c));
      }
    if (j.contains("notes")) m.notes = j["notes"].get<std::vector<std::string>>();
    if (j.contains("kernel_resources"))
      for (const json& o : j["kernel_resources"]) {
        KernelResources r;
        r.kernel = o.value("kernel", "");
        r.registers = o.value("registers", -1);
        r.sharedBytes = o.value("shared_bytes", int64_t{0});
        r.stackBytes = o.value("stack_bytes", int64_t{0});
        r.localBytes = o.value("local_bytes", int64_t{0});
        m.kernelResources.push_back(std::move(r));
      }
    if (j.contains("instructions")) {
      for (const json& o : j["instructions"]) {
        MeasuredInstruction in;
        in.moduleCrc = o.value("crc", uint32_t{0});
        in.function = o.value("function", "");
        in.demangled = o.value("demangled", "");
        in.pc = o.value("pc", uint64_t{0});
        in.file = o.value("file", "");
        in.line = o.value("line", 0u);
        in.opcode = o.value("opcode", "");
        if (o.contains("inlined_at"))
          for (const json& c : o["inlined_at"]) in.inlinedAt.emplace_back(c.value("file", ""), c.value("line", 0u));
        if (o.contains("metrics")) in.metrics = o["metrics"].get<std::map<std::string, uint64_t>>();
        m.instructions.push_back(std::move(in));
      }
    }
    if (j.contains("config_counters"))
      for (const json& o : j["config_counters"]) {
        ConfigCounters c;
        c.config = o.at("config").get<uint32_t>();
        c.instruction = o.at("instruction").get<uint32_t>();
        if (c.config >= m.launchConfigs.size() || c.instruction >= m.instructions.size())
          throw std::runtime_error("measurements: config_counters names configuration " + std::to_string(c.config) +
                                   " or instruction " + std::to_string(c.instruction) + ", which do not exist");
        if (o.contains("metrics")) c.metrics = o["metrics"].get<std::map<std::string, uint64_t>>();
        m.configCounters.push_back(std::move(c));
      }
  } catch (const json::exception& e) {
    throw std::runtime_error(std::string("measurements: unexpected field type: ") + e.what());
  }
  return m;
}

std::vector<std::string> kernelsMeasuredPerConfiguration(const Measurements& m) {
  std::map<uint32_t, bool> configsWithCounters;
  for (const ConfigCounters& c : m.configCounters) configsWithCounters[c.config] = true;
  std::map<std::string, size_t> perKernel;
  std::vector<std::string> order;
  for (const auto& [config, _] : configsWithCounters) {
    const std::string& k = m.launchConfigs[config].kernel;
    if (perKernel[k]++ == 0) order.push_back(k);
  }
  std::vector<std::string> out;
  for (const std::string& k : order)
    if (perKernel[k] >= 2) out.push_back(k);
  return out;
}

Measurements withoutInstructions(const Measurements& m) {
  Measurements out;
  out.status = m.status;
  out.errorKind = m.errorKind;
  out.error = m.error;
  out.device = m.device;
  out.metricsCollected = m.metricsCollected;
  out.availableMetrics = m.availableMetrics;
  out.kernelLaunches = m.kernelLaunches;
  out.droppedRecords = m.droppedRecords;
  out.launchesMeasured = m.launchesMeasured;
  out.processes = m.processes;
  out.sampling = m.sampling;
  out.configsOverCap = m.configsOverCap;
  out.launchConfigs = m.launchConfigs;
  out.notes = m.notes;
  out.kernelResources = m.kernelResources;
  return out;
}

std::vector<std::vector<size_t>> countersByConfiguration(const Measurements& m) {
  std::vector<std::vector<size_t>> out(m.launchConfigs.size());
  for (size_t i = 0; i < m.configCounters.size(); ++i)
    if (m.configCounters[i].config < out.size()) out[m.configCounters[i].config].push_back(i);
  return out;
}

Measurements configurationView(const Measurements& m, uint32_t config) {
  return configurationView(m, config, config < m.launchConfigs.size() ? countersByConfiguration(m)[config]
                                                                      : std::vector<size_t>{});
}

Measurements configurationView(const Measurements& m, uint32_t config, const std::vector<size_t>& counters) {
  Measurements v;
  v.status = m.status;
  v.device = m.device;
  v.metricsCollected = m.metricsCollected;
  v.kernelResources = m.kernelResources;
  if (config < m.launchConfigs.size()) {
    v.launchConfigs.push_back(m.launchConfigs[config]);
    v.kernelLaunches = m.launchConfigs[config].launches;
  }
  for (size_t i : counters) {
    const ConfigCounters& c = m.configCounters[i];
    if (c.config != config) continue;
    MeasuredInstruction in = m.instructions[c.instruction];
    in.metrics = c.metrics;
    v.instructions.push_back(std::move(in));
  }
  return v;
}

void appendMeasurements(Measurements& a, const Measurements& b) {
  const auto instructionBase = static_cast<uint32_t>(a.instructions.size());
  const auto configBase = static_cast<uint32_t>(a.launchConfigs.size());
  a.instructions.insert(a.instructions.end(), b.instructions.begin(), b.instructions.end());
  a.launchConfigs.insert(a.launchConfigs.end(), b.launchConfigs.begin(), b.launchConfigs.end());
  for (ConfigCounters c : b.configCounters) {
    c.config += configBase;
    c.instruction += instructionBase;
    a.configCounters.push_back(std::move(c));
  }
  a.kernelLaunches += b.kernelLaunches;
  a.droppedRecords += b.droppedRecords;
  a.launchesMeasured += b.launchesMeasured;
  a.configsOverCap += b.configsOverCap;
}

Measurements loadMeasurements(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("measurements: cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return measurementsFromJson(ss.str());
}

}  // namespace coalesce::verify
