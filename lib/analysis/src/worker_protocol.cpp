// The records' JSON form (the launcher's per-object results, result_file.cpp; the worker's
// pipe and the result cache use the binary form of worker_binary.cpp): every field of every
// record, through llvm::json, walked from the one field list in coalesce/records/fields.h (a writer and a reader visitor below), so
// a new record field travels without a change here. A record is an object keyed by the
// list's names; an enumeration travels as its toString name. Exactness first: a double
// travels as its 64-bit pattern, a string that is not UTF-8 (a Latin-1 source line) as
// hex, so what the parent reads equals what the worker had, bit for bit
// (test/cli/worker_protocol_test.cpp).
//
// Neither side holds a tree of the whole file's records (issue 16: 98 KiB an access did,
// docs/analysis-speed.md): the writer streams them with json::OStream, and the reader
// indexes the top-level object's members by their text spans and parses one record of a
// list at a time (a small llvm::json tree, decoded and dropped), so the parent's peak is
// the text and the decoded records. Members are found by name, in any order.
#include <llvm/Support/JSON.h>
#include <llvm/Support/raw_ostream.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>
#include <cstdint>
#include <string>

#include "coalesce/analysis/worker.h"
#include "coalesce/records/fields.h"

namespace coalesce::analysis {

namespace json = llvm::json;

namespace {

// 2: records as objects keyed by the names of coalesce/records/fields.h, enumerations by
// name (1 wrote positional arrays and enumerator numbers).
constexpr int kProtocolVersion = 2;

llvm::StringRef key(std::string_view s) { return {s.data(), s.size()}; }

// ---- writing -----------------------------------------------------------------------------

// Visits one record's fields (describeFields) into the object being streamed.
class WireWriter {
 public:
  explicit WireWriter(json::OStream& out) : out_(out) {}

  template <class T>
  void field(std::string_view name, const T& value, unsigned /*flags: for the public report*/ = kPlainField) {
    out_.attributeBegin(key(name));
    write(value);
    out_.attributeEnd();
  }

  template <class T>
  void write(const T& value) {
    if constexpr (std::is_same_v<T, bool>) {
      out_.value(value);
    } else if constexpr (std::is_integral_v<T>) {
      out_.value(static_cast<int64_t>(value));
    } else if constexpr (std::is_same_v<T, double>) {
      out_.value(std::bit_cast<int64_t>(value));
    } else if constexpr (std::is_same_v<T, std::string>) {
      writeString(value);
    } else if constexpr (std::is_enum_v<T>) {
      out_.value(key(toString(value)));
    } else if constexpr (kIsOptional<T>) {
      if (value) write(*value);
      else out_.value(nullptr);
    } else if constexpr (kIsPair<T>) {
      out_.arrayBegin();
      write(value.first);
      write(value.second);
      out_.arrayEnd();
    } else if constexpr (kIsVector<T>) {
      out_.arrayBegin();
      for (const auto& x : value) write(x);
      out_.arrayEnd();
    } else {
      out_.objectBegin();
      describeFields(*this, value);
      out_.objectEnd();
    }
  }

 private:
  // A string that is not UTF-8 (JSON cannot hold it) travels as {"hex": its bytes}.
  void writeString(const std::string& s) {
    if (json::isUTF8(s)) return out_.value(llvm::StringRef(s));
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    for (unsigned char c : s) {
      hex += kHex[c >> 4];
      hex += kHex[c & 15];
    }
    out_.object([&] { out_.attribute("hex", hex); });
  }

  json::OStream& out_;
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
  void field(std::string_view name, T& out, unsigned flags = kPlainField) {
    if (!object_ || !error_.empty()) return;
    const std::string path = path_.empty() ? std::string(name) : path_ + "." + std::string(name);
    if (const json::Value* v = object_->get(key(name)))
      decode(*v, out, path);
    else if (!(flags & kMayBeAbsent))  // a field added later keeps its default (fields.h)
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

// The spans of a JSON text's values, found without building them: what lets the reader
// parse one record at a time. A span is checked only for its nesting here; json::parse
// checks the rest when the span is read.
class SpanScanner {
 public:
  explicit SpanScanner(std::string_view text) : text_(text) {}

  void skipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' || text_[pos_] == '\t'))
      ++pos_;
  }
  // Consumes `c` (after white space) when it is next.
  bool take(char c) {
    skipSpace();
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  bool atEnd() {
    skipSpace();
    return pos_ >= text_.size();
  }
  // The next value's text (after white space), or nullopt when it is malformed.
  std::optional<std::string_view> value() {
    skipSpace();
    const size_t begin = pos_;
    if (pos_ >= text_.size()) return std::nullopt;
    const char first = text_[pos_];
    if (first == '"') {
      if (!skipString()) return std::nullopt;
    } else if (first == '{' || first == '[') {
      std::string nesting;  // the closing brackets owed, innermost last
      while (pos_ < text_.size()) {
        const char c = text_[pos_];
        if (c == '"') {
          if (!skipString()) return std::nullopt;
          continue;
        }
        ++pos_;
        if (c == '{') nesting += '}';
        else if (c == '[') nesting += ']';
        else if (c == '}' || c == ']') {
          if (nesting.empty() || nesting.back() != c) return std::nullopt;
          nesting.pop_back();
          if (nesting.empty()) break;
        }
      }
      if (!nesting.empty()) return std::nullopt;
    } else {
      while (pos_ < text_.size() && !std::strchr(",:]} \n\r\t\"{[", text_[pos_])) ++pos_;
      if (pos_ == begin) return std::nullopt;
    }
    return text_.substr(begin, pos_ - begin);
  }
  size_t offset() const { return pos_; }

 private:
  bool skipString() {
    ++pos_;  // the opening quote
    while (pos_ < text_.size()) {
      const char c = text_[pos_++];
      if (c == '\\') ++pos_;
      else if (c == '"') return true;
    }
    return false;
  }
  std::string_view text_;
  size_t pos_ = 0;
};

// The top-level object's members as text spans, read by name (describeFields): a list is
// decoded record by record, anything else parsed whole (it is small).
class TopReader {
 public:
  TopReader(std::vector<std::pair<std::string, std::string_view>> members, std::string& error)
      : members_(std::move(members)), error_(error) {}

  template <class T>
  void field(std::string_view name, T& out, unsigned /*flags*/ = kPlainField) {
    if (!error_.empty()) return;
    const auto it = std::find_if(members_.begin(), members_.end(), [&](const auto& m) { return m.first == name; });
    if (it == members_.end()) {
      error_ = "missing " + std::string(name);
      return;
    }
    WireReader reader(nullptr, error_, "");
    if constexpr (kIsVector<T>) {
      SpanScanner list(it->second);
      if (!list.take('[')) return fail(std::string(name) + ": expected an array");
      out.clear();
      if (list.take(']')) return;
      do {
        const std::optional<std::string_view> item = list.value();
        if (!item) return fail("not JSON: malformed " + std::string(name));
        auto parsed = json::parse(key(*item));
        if (!parsed) return fail("not JSON: " + llvm::toString(parsed.takeError()));
        out.emplace_back();
        reader.decode(*parsed, out.back(), std::string(name) + "[" + std::to_string(out.size() - 1) + "]");
        if (!error_.empty()) return;
      } while (list.take(','));
      if (!list.take(']') || !list.atEnd()) fail("not JSON: malformed " + std::string(name));
    } else {
      auto parsed = json::parse(key(it->second));
      if (!parsed) return fail("not JSON: " + llvm::toString(parsed.takeError()));
      reader.decode(*parsed, out, std::string(name));
    }
  }

 private:
  void fail(std::string why) {
    if (error_.empty()) error_ = std::move(why);
  }
  std::vector<std::pair<std::string, std::string_view>> members_;
  std::string& error_;
};

// The top-level object's members of `text`, or why it is not one.
std::string topMembers(std::string_view text, std::vector<std::pair<std::string, std::string_view>>& out) {
  SpanScanner top(text);
  auto whole = [&]() -> std::string {  // the error of a text that is not an object of members
    auto parsed = json::parse(key(text));
    if (!parsed) return "not JSON: " + llvm::toString(parsed.takeError());
    if (!parsed->getAsObject()) return "records: expected an object";
    return "not JSON: malformed at offset " + std::to_string(top.offset());
  };
  if (!top.take('{')) return whole();
  if (top.take('}')) return top.atEnd() ? "" : whole();
  do {
    const std::optional<std::string_view> name = top.value();
    if (!name || name->front() != '"' || !top.take(':')) return whole();
    auto parsedName = json::parse(key(*name));
    const std::optional<std::string_view> value = top.value();
    if (!parsedName || !parsedName->getAsString() || !value) return whole();
    out.emplace_back(parsedName->getAsString()->str(), *value);
  } while (top.take(','));
  if (!top.take('}') || !top.atEnd()) return whole();
  return {};
}

// The records of `text`.
std::string readRecords(std::string_view text, AnalysisResult& out) {
  std::vector<std::pair<std::string, std::string_view>> members;
  if (std::string error = topMembers(text, members); !error.empty()) return error;
  std::string error;
  TopReader r(std::move(members), error);
  int64_t protocol = 0;
  r.field("protocol", protocol);
  if (!error.empty() || protocol != kProtocolVersion) return "protocol version mismatch";
  AnalysisResult result;
  describeFields(r, result);
  if (!error.empty()) return error;
  out = std::move(result);
  return {};
}

// Streams one object into a string: `members` writes its members through the WireWriter.
template <class F>
std::string streamObject(F&& members) {
  std::string text;
  llvm::raw_string_ostream os(text);
  json::OStream out(os);
  WireWriter w(out);
  out.object([&] {
    out.attribute("protocol", kProtocolVersion);
    members(w);
  });
  os.flush();
  return text;
}

}  // namespace

std::string recordsToJson(const AnalysisResult& records) {
  return streamObject([&](WireWriter& w) { describeFields(w, records); });
}

std::string recordsFromJson(std::string_view text, AnalysisResult& out) { return readRecords(text, out); }

}  // namespace coalesce::analysis
