// The worker's wire format: every field of every record, through llvm::json, walked from
// the one field list in coalesce/records/fields.h (a writer and a reader visitor below), so
// a new record field travels without a change here. A record is an object keyed by the
// list's names; an enumeration travels as its toString name. Exactness first: a double
// travels as its 64-bit pattern, a string that is not UTF-8 (a Latin-1 source line) as
// hex, so what the parent reads equals what the worker had, bit for bit
// (test/cli/worker_protocol_test.cpp).
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <bit>
#include <cstdint>
#include <string>

#include "coalesce/analysis/worker.h"
#include "coalesce/records/fields.h"
#include "worker_process.h"

namespace coalesce::analysis {

namespace json = llvm::json;

namespace {

// 2: records as objects keyed by the names of coalesce/records/fields.h, enumerations by
// name (1 wrote positional arrays and enumerator numbers).
constexpr int kProtocolVersion = 2;

llvm::StringRef key(std::string_view s) { return {s.data(), s.size()}; }

// ---- writing -----------------------------------------------------------------------------

json::Value encodeString(const std::string& s) {
  if (json::isUTF8(s)) return s;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : s) {
    hex += kHex[c >> 4];
    hex += kHex[c & 15];
  }
  return json::Object{{"hex", std::move(hex)}};
}

// Visits one record's fields (describeFields) into one object.
class WireWriter {
 public:
  explicit WireWriter(json::Object& object) : object_(object) {}

  template <class T>
  void field(std::string_view name, const T& value, unsigned /*flags: for the public report*/ = kPlainField) {
    object_[key(name)] = encode(value);
  }

  template <class T>
  static json::Value encode(const T& value) {
    if constexpr (std::is_same_v<T, bool>) {
      return value;
    } else if constexpr (std::is_integral_v<T>) {
      return static_cast<int64_t>(value);
    } else if constexpr (std::is_same_v<T, double>) {
      return std::bit_cast<int64_t>(value);
    } else if constexpr (std::is_same_v<T, std::string>) {
      return encodeString(value);
    } else if constexpr (std::is_enum_v<T>) {
      return std::string(toString(value));
    } else if constexpr (kIsOptional<T>) {
      return value ? encode(*value) : json::Value(nullptr);
    } else if constexpr (kIsPair<T>) {
      return json::Array{encode(value.first), encode(value.second)};
    } else if constexpr (kIsVector<T>) {
      json::Array a;
      a.reserve(value.size());
      for (const auto& x : value) a.push_back(encode(x));
      return a;
    } else {
      json::Object o;
      WireWriter w(o);
      describeFields(w, value);
      return o;
    }
  }

 private:
  json::Object& object_;
};

// ---- reading -----------------------------------------------------------------------------

// Reads one record's fields (describeFields) out of one object. The first mismatch is kept,
// with its path, in the shared `error`; every later read leaves its default, so a reader
// goes straight through and the caller checks once.
class WireReader {
 public:
  WireReader(const json::Object* object, std::string& error, std::string path)
      : object_(object), error_(error), path_(std::move(path)) {}

  template <class T>
  void field(std::string_view name, T& out, unsigned /*flags*/ = kPlainField) {
    if (!object_ || !error_.empty()) return;
    const std::string path = path_.empty() ? std::string(name) : path_ + "." + std::string(name);
    if (const json::Value* v = object_->get(key(name)))
      decode(*v, out, path);
    else
      error_ = "missing " + path;
  }

  template <class T>
  void decode(const json::Value& v, T& out, const std::string& path) {
    if (!error_.empty()) return;
    if constexpr (std::is_same_v<T, bool>) {
      if (auto b = v.getAsBoolean()) out = *b;
      else fail(path, "a boolean");
    } else if constexpr (std::is_integral_v<T>) {
      if (auto i = v.getAsInteger()) out = static_cast<T>(*i);
      else fail(path, "an integer");
    } else if constexpr (std::is_same_v<T, double>) {
      if (auto i = v.getAsInteger()) out = std::bit_cast<double>(*i);
      else fail(path, "a double's bit pattern");
    } else if constexpr (std::is_same_v<T, std::string>) {
      decodeString(v, out, path);
    } else if constexpr (std::is_enum_v<T>) {
      std::optional<T> e;
      if (auto s = v.getAsString()) e = parseName(std::string_view(s->data(), s->size()), std::type_identity<T>{});
      if (e) out = *e;
      else fail(path, "a known enumerator name");
    } else if constexpr (kIsOptional<T>) {
      if (v.getAsNull()) {
        out.reset();
      } else {
        out.emplace();
        decode(v, *out, path);
      }
    } else if constexpr (kIsPair<T>) {
      const json::Array* a = v.getAsArray();
      if (!a || a->size() != 2) return fail(path, "an array of 2");
      decode((*a)[0], out.first, path + "[0]");
      decode((*a)[1], out.second, path + "[1]");
    } else if constexpr (kIsVector<T>) {
      const json::Array* a = v.getAsArray();
      if (!a) return fail(path, "an array");
      out.clear();
      out.reserve(a->size());
      for (size_t i = 0; i < a->size() && error_.empty(); ++i) {
        out.emplace_back();
        decode((*a)[i], out.back(), path + "[" + std::to_string(i) + "]");
      }
    } else {
      const json::Object* o = v.getAsObject();
      if (!o) return fail(path, "an object");
      WireReader child(o, error_, path);
      describeFields(child, out);
    }
  }

 private:
  void decodeString(const json::Value& v, std::string& out, const std::string& path) {
    if (auto s = v.getAsString()) {
      out = s->str();
      return;
    }
    if (const json::Object* o = v.getAsObject())
      if (auto hex = o->getString("hex"); hex && hex->size() % 2 == 0) {
        auto digit = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
        out.clear();
        for (size_t i = 0; i < hex->size(); i += 2)
          out += static_cast<char>(digit((*hex)[i]) * 16 + digit((*hex)[i + 1]));
        return;
      }
    fail(path, "a string");
  }
  void fail(const std::string& path, std::string_view expected) {
    if (error_.empty()) error_ = path + ": expected " + std::string(expected);
  }

  const json::Object* object_;
  std::string& error_;
  std::string path_;
};

}  // namespace

namespace {

json::Object recordsObject(const AnalysisResult& records) {
  json::Object top{{"protocol", kProtocolVersion}};
  WireWriter w(top);
  describeFields(w, records);
  return top;
}

std::string print(json::Object top) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << json::Value(std::move(top));
  return text;
}

// The records of `text`; with `outcome`, also a worker outcome's "inputs" (the files the
// parse read) and "cacheable".
std::string readRecords(std::string_view text, AnalysisResult& out, WorkerOutcome* outcome) {
  auto parsed = json::parse(key(text));
  if (!parsed) return "not JSON: " + llvm::toString(parsed.takeError());
  const json::Object* top = parsed->getAsObject();
  if (!top) return "records: expected an object";
  if (top->getInteger("protocol") != kProtocolVersion) return "protocol version mismatch";
  std::string error;
  AnalysisResult result;
  WireReader r(top, error, "");
  describeFields(r, result);
  if (outcome) {
    r.field("inputs", outcome->inputs);
    r.field("cacheable", outcome->cacheable);
    r.field("pch_unusable", outcome->pchUnusable);
  }
  if (!error.empty()) return error;
  out = std::move(result);
  return {};
}

}  // namespace

std::string recordsToJson(const AnalysisResult& records) { return print(recordsObject(records)); }

std::string recordsFromJson(std::string_view text, AnalysisResult& out) { return readRecords(text, out, nullptr); }

std::string outcomeToWire(const WorkerOutcome& outcome) {
  AnalysisResult records;
  records.files.push_back(outcome.file);
  records.kernels = outcome.tu.kernels;
  records.accesses = outcome.tu.accesses;
  records.branches = outcome.tu.branches;
  records.barriers = outcome.tu.barriers;
  records.pointerParams = outcome.tu.pointerParams;
  json::Object top = recordsObject(records);
  top["inputs"] = WireWriter::encode(outcome.inputs);
  top["cacheable"] = outcome.cacheable;
  top["pch_unusable"] = outcome.pchUnusable;
  return print(std::move(top));
}

std::string outcomeFromWire(std::string_view text, WorkerOutcome& out) {
  AnalysisResult records;
  WorkerOutcome o;
  if (std::string error = readRecords(text, records, &o); !error.empty()) return error;
  if (records.files.size() != 1) return "the records hold no file record";
  o.file = std::move(records.files.front());
  o.tu.kernels = std::move(records.kernels);
  o.tu.accesses = std::move(records.accesses);
  o.tu.branches = std::move(records.branches);
  o.tu.barriers = std::move(records.barriers);
  o.tu.pointerParams = std::move(records.pointerParams);
  out = std::move(o);
  return {};
}

}  // namespace coalesce::analysis
