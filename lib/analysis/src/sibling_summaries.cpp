// SiblingSummaries (sibling_summaries.h): a run's sibling summaries as small JSON files in
// the run's folder, written atomically (result_cache.h's writeAtomically), claimed with an
// exclusive create.
#include "sibling_summaries.h"

#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <cerrno>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <signal.h>
#include <sstream>
#include <unistd.h>

#include "result_cache.h"

namespace coalesce::analysis {

namespace json = llvm::json;

namespace {

constexpr const char* kFormat = "sibling-summary-7";  // 2: loops around calls, constants; 3: option defaults; 4: share of iterations; 5: call sites; 6: complete; 7: launch configurations

json::Value valueToJson(const SummaryValue& v) {
  return json::Array{static_cast<int64_t>(v.kind), v.constant, v.function, v.parameter};
}

bool valueFromJson(const json::Value* j, SummaryValue& v) {
  const json::Array* a = j ? j->getAsArray() : nullptr;
  if (!a || a->size() != 4) return false;
  auto kind = (*a)[0].getAsInteger();
  auto constant = (*a)[1].getAsInteger();
  auto function = (*a)[2].getAsString();
  auto parameter = (*a)[3].getAsInteger();
  if (!kind || !constant || !function || !parameter || *kind < 0 ||
      *kind > static_cast<int64_t>(SummaryValue::Kind::OptionDefault))
    return false;
  v.kind = static_cast<SummaryValue::Kind>(*kind);
  v.constant = *constant;
  v.function = function->str();
  v.parameter = static_cast<int>(*parameter);
  return true;
}

json::Value loopToJson(const SummaryLoop& l) {
  return json::Array{l.followable, valueToJson(l.start), valueToJson(l.bound), static_cast<int64_t>(l.compare),
                     static_cast<int64_t>(l.step), l.by};
}

bool loopFromJson(const json::Value& j, SummaryLoop& l) {
  const json::Array* a = j.getAsArray();
  if (!a || a->size() != 6) return false;
  auto followable = (*a)[0].getAsBoolean();
  auto compare = (*a)[3].getAsInteger();
  auto step = (*a)[4].getAsInteger();
  auto by = (*a)[5].getAsInteger();
  if (!followable || !compare || !step || !by || *compare < 0 || *compare > 4 || *step < 0 || *step > 4) return false;
  if (!valueFromJson(&(*a)[1], l.start) || !valueFromJson(&(*a)[2], l.bound)) return false;
  l.followable = *followable;
  l.compare = static_cast<SummaryLoop::Compare>(*compare);
  l.step = static_cast<SummaryLoop::Step>(*step);
  l.by = *by;
  return true;
}

json::Array strings(const auto& list) {
  json::Array out;
  for (const std::string& s : list) out.push_back(s);
  return out;
}

bool stringsFrom(const json::Object& o, llvm::StringRef name, auto insert) {
  const json::Array* a = o.getArray(name);
  if (!a) return false;
  for (const json::Value& v : *a) {
    auto s = v.getAsString();
    if (!s) return false;
    insert(s->str());
  }
  return true;
}

}  // namespace

std::string SiblingSummaries::keyOf(const std::vector<std::string>& arguments, const std::string& directory) {
  // The file (last) absolute and normal: a sibling is named by its folder, the file that
  // publishes its own summary as its command line names it.
  KeyBuilder key;
  key.add(directory);
  for (size_t i = 0; i + 1 < arguments.size(); ++i) key.add(arguments[i]);
  if (!arguments.empty()) {
    std::filesystem::path file(arguments.back());
    if (file.is_relative()) file = std::filesystem::path(directory) / file;
    key.add(file.lexically_normal().string());
  }
  return key.hex();
}

std::string SiblingSummaries::toText(const SiblingSummary& s) {
  json::Array calls, writes;
  for (const HostSummary::Call& c : s.summary.calls) {
    json::Array args;
    for (const SummaryValue& v : c.args) args.push_back(valueToJson(v));
    json::Array loops;
    for (const SummaryLoop& l : c.loops) loops.push_back(loopToJson(l));
    json::Value launch = nullptr;
    if (c.launch) {
      json::Array config;
      for (const SummaryValue& v : c.launch->grid) config.push_back(valueToJson(v));
      for (const SummaryValue& v : c.launch->block) config.push_back(valueToJson(v));
      config.push_back(valueToJson(c.launch->sharedBytes));
      config.push_back(c.launch->where);
      config.push_back(c.launch->templateArgs);
      launch = std::move(config);
    }
    calls.push_back(json::Array{c.caller, c.callee, std::move(args), std::move(loops), c.share, c.site, std::move(launch)});
  }
  json::Object constants;
  for (const auto& [name, value] : s.summary.constants) constants[name] = value;
  for (const HostSummary::MemberWrite& w : s.summary.writes) {
    json::Value bytes = w.pointerBytes ? json::Value(*w.pointerBytes) : json::Value(nullptr);
    writes.push_back(json::Array{w.caller, w.record, w.member, valueToJson(w.value), std::move(bytes), w.pointer});
  }
  json::Object o{{"format", kFormat},
                 {"calls", std::move(calls)},
                 {"writes", std::move(writes)},
                 {"constants", std::move(constants)},
                 {"defined", strings(s.summary.defined)},
                 {"roots", strings(s.summary.roots)},
                 {"complete", s.summary.complete},
                 {"inputs", strings(s.inputs)}};
  std::string text;
  llvm::raw_string_ostream os(text);
  os << json::Value(std::move(o));
  os.flush();
  return text;
}

std::optional<SiblingSummary> SiblingSummaries::fromText(const std::string& text) {
  llvm::Expected<json::Value> parsed = json::parse(text);
  if (!parsed) {
    llvm::consumeError(parsed.takeError());
    return std::nullopt;
  }
  const json::Object* o = parsed->getAsObject();
  if (!o || o->getString("format") != std::optional<llvm::StringRef>(kFormat)) return std::nullopt;
  SiblingSummary out;
  const json::Array* calls = o->getArray("calls");
  const json::Array* writes = o->getArray("writes");
  if (!calls || !writes) return std::nullopt;
  for (const json::Value& c : *calls) {
    const json::Array* a = c.getAsArray();
    if (!a || a->size() != 7) return std::nullopt;
    auto caller = (*a)[0].getAsString();
    auto callee = (*a)[1].getAsString();
    const json::Array* args = (*a)[2].getAsArray();
    const json::Array* loops = (*a)[3].getAsArray();
    if (!caller || !callee || !args || !loops) return std::nullopt;
    HostSummary::Call call{caller->str(), callee->str(), {}, {}, (*a)[4].getAsNumber().value_or(1.0), {}, std::nullopt};
    if (auto site = (*a)[5].getAsString()) call.site = site->str();
    if (const json::Array* config = (*a)[6].getAsArray()) {
      if (config->size() != 9) return std::nullopt;
      HostSummary::LaunchConfig launch;
      for (int i = 0; i < 3; ++i)
        if (!valueFromJson(&(*config)[i], launch.grid[i]) || !valueFromJson(&(*config)[3 + i], launch.block[i]))
          return std::nullopt;
      if (!valueFromJson(&(*config)[6], launch.sharedBytes)) return std::nullopt;
      if (auto where = (*config)[7].getAsString()) launch.where = where->str();
      if (auto instance = (*config)[8].getAsString()) launch.templateArgs = instance->str();
      call.launch = std::move(launch);
    }
    for (const json::Value& v : *args) {
      SummaryValue value;
      if (!valueFromJson(&v, value)) return std::nullopt;
      call.args.push_back(std::move(value));
    }
    for (const json::Value& l : *loops) {
      SummaryLoop loop;
      if (!loopFromJson(l, loop)) return std::nullopt;
      call.loops.push_back(std::move(loop));
    }
    out.summary.calls.push_back(std::move(call));
  }
  for (const json::Value& w : *writes) {
    const json::Array* a = w.getAsArray();
    if (!a || a->size() != 6) return std::nullopt;
    auto caller = (*a)[0].getAsString();
    auto record = (*a)[1].getAsString();
    auto member = (*a)[2].getAsString();
    auto pointer = (*a)[5].getAsBoolean();
    if (!caller || !record || !member || !pointer) return std::nullopt;
    HostSummary::MemberWrite write{caller->str(), record->str(), member->str(), {}, {}, *pointer};
    if (!valueFromJson(&(*a)[3], write.value)) return std::nullopt;
    if (auto bytes = (*a)[4].getAsInteger()) write.pointerBytes = *bytes;
    else if (!(*a)[4].getAsNull()) return std::nullopt;
    out.summary.writes.push_back(std::move(write));
  }
  const json::Object* constants = o->getObject("constants");
  if (!constants) return std::nullopt;
  for (const auto& [name, value] : *constants) {
    auto v = value.getAsInteger();
    if (!v) return std::nullopt;
    out.summary.constants[name.str()] = *v;
  }
  const std::optional<bool> complete = o->getBoolean("complete");
  if (!complete) return std::nullopt;
  out.summary.complete = *complete;
  if (!stringsFrom(*o, "defined", [&](std::string s) { out.summary.defined.insert(std::move(s)); }) ||
      !stringsFrom(*o, "roots", [&](std::string s) { out.summary.roots.insert(std::move(s)); }) ||
      !stringsFrom(*o, "inputs", [&](std::string s) { out.inputs.push_back(std::move(s)); }))
    return std::nullopt;
  return out;
}

std::optional<SiblingSummary> SiblingSummaries::load(const std::string& key) const {
  std::ifstream in(path(key, ".json"), std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream text;
  text << in.rdbuf();
  return fromText(text.str());
}

bool SiblingSummaries::claim(const std::string& key) const {
  const int fd = ::open(path(key, ".claim").c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  const std::string pid = std::to_string(::getpid());
  const bool written = ::write(fd, pid.data(), pid.size()) == static_cast<ssize_t>(pid.size());
  ::close(fd);
  return written;
}

bool SiblingSummaries::claimHeld(const std::string& key) const {
  std::ifstream in(path(key, ".claim"));
  long pid = 0;
  // A claim being written (empty yet) is held; an unreadable one is not.
  if (!in) return false;
  if (!(in >> pid)) return true;
  return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

size_t SiblingSummaries::claimed() const {
  size_t n = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(folder_, ec))
    if (e.path().extension() == ".claim") ++n;
  return n;
}

void SiblingSummaries::store(const std::string& key, const SiblingSummary& s) const {
  ResultCache::writeAtomically(path(key, ".json"), toText(s));
}

}  // namespace coalesce::analysis
