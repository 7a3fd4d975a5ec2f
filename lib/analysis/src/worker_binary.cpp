// The records' compact binary form (worker.h: recordsToBinary), and a worker's outcome in it
// (worker_process.h: outcomeToWire): what a forked worker writes to its parent and what the
// result cache keeps (docs/analysis-speed.md, "The worker's wire format"). The JSON form
// (worker_protocol.cpp) stays for the launcher's per-object results, which other builds of the
// tool read; this one is read only by the binary that wrote it (the worker's parent, or a run
// of the same executable: the cache's key holds the tool's identity), so fields are written in
// the field list's order (coalesce/records/fields.h) without their names.
//
// Every field of every record, walked from the one field list: a bool as a byte (0 or 1), an
// integer as a zigzag varint of its 64-bit value, a double as its 8-byte pattern, a string as
// its length and its bytes (any bytes: a Latin-1 source line needs no escape), an enumeration
// as its number (refused unless toString and parseName give it back), an optional as a byte
// then its value, a list as its length then its elements. Exact to the bit, as the JSON form.
// A reader checks every length against what is left (a cut-short or damaged text is an error,
// never a crash or a huge allocation) and that nothing is left at the end.
//
// Why (issue 16): the JSON form was about a third of a file's cost on a kernel of 16,384
// accesses (bench/RESULTS.md, "Session 11": writing text, scanning it, parsing each record
// into a tree and decoding it).
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "coalesce/analysis/worker.h"
#include "coalesce/records/fields.h"
#include "worker_process.h"

namespace coalesce::analysis {

namespace {

// "CLB" and the format's version: 1.
constexpr char kMagic[4] = {'C', 'L', 'B', '\x01'};

class BinaryWriter {
 public:
  explicit BinaryWriter(std::string& out) : out_(out) {}

  template <class T>
  void field(std::string_view /*name*/, const T& value, unsigned /*flags*/ = kPlainField) {
    write(value);
  }

  template <class T>
  void write(const T& value) {
    if constexpr (std::is_same_v<T, bool>) {
      out_ += value ? '\1' : '\0';
    } else if constexpr (std::is_integral_v<T>) {
      integer(static_cast<int64_t>(value));
    } else if constexpr (std::is_same_v<T, double>) {
      const uint64_t bits = std::bit_cast<uint64_t>(value);
      for (int i = 0; i < 8; ++i) out_ += static_cast<char>((bits >> (8 * i)) & 0xff);
    } else if constexpr (std::is_same_v<T, std::string>) {
      unsignedInteger(value.size());
      out_ += value;
    } else if constexpr (std::is_enum_v<T>) {
      integer(static_cast<int64_t>(value));
    } else if constexpr (kIsOptional<T>) {
      out_ += value ? '\1' : '\0';
      if (value) write(*value);
    } else if constexpr (kIsPair<T>) {
      write(value.first);
      write(value.second);
    } else if constexpr (kIsVector<T>) {
      unsignedInteger(value.size());
      for (const auto& x : value) write(x);
    } else {
      describeFields(*this, value);
    }
  }

 private:
  void unsignedInteger(uint64_t v) {
    while (v >= 0x80) {
      out_ += static_cast<char>((v & 0x7f) | 0x80);
      v >>= 7;
    }
    out_ += static_cast<char>(v);
  }
  void integer(int64_t v) {  // zigzag: small negative numbers stay short
    unsignedInteger((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63));
  }

  std::string& out_;
};

class BinaryReader {
 public:
  explicit BinaryReader(std::string_view in) : at_(in.data()), end_(in.data() + in.size()) {}

  const std::string& error() const { return error_; }
  bool atEnd() const { return at_ == end_; }
  bool take(const char* bytes, size_t n) {
    if (static_cast<size_t>(end_ - at_) < n || std::memcmp(at_, bytes, n) != 0) return false;
    at_ += n;
    return true;
  }

  template <class T>
  void field(std::string_view name, T& out, unsigned /*flags*/ = kPlainField) {
    if (!error_.empty()) return;
    read(out);
    // The path of fields the error was met in, outermost first ("files.status").
    if (!error_.empty()) where_ = where_.empty() ? std::string(name) : std::string(name) + "." + where_;
  }

  template <class T>
  void read(T& out) {
    if (!error_.empty()) return;
    if constexpr (std::is_same_v<T, bool>) {
      const uint8_t b = byte();
      if (b > 1) return fail("a boolean");
      out = b == 1;
    } else if constexpr (std::is_integral_v<T>) {
      out = static_cast<T>(integer());
    } else if constexpr (std::is_same_v<T, double>) {
      if (end_ - at_ < 8) return fail("a double's 8 bytes");
      uint64_t bits = 0;
      for (int i = 0; i < 8; ++i) bits |= static_cast<uint64_t>(static_cast<uint8_t>(at_[i])) << (8 * i);
      at_ += 8;
      out = std::bit_cast<double>(bits);
    } else if constexpr (std::is_same_v<T, std::string>) {
      const uint64_t n = unsignedInteger();
      if (!error_.empty()) return;
      if (n > static_cast<uint64_t>(end_ - at_)) return fail("a string's bytes");
      out.assign(at_, static_cast<size_t>(n));
      at_ += n;
    } else if constexpr (std::is_enum_v<T>) {
      const T e = static_cast<T>(integer());
      if (!error_.empty()) return;
      const std::optional<T> back = parseName(toString(e), std::type_identity<T>{});
      if (!back || *back != e) return fail("a known enumerator");
      out = e;
    } else if constexpr (kIsOptional<T>) {
      const uint8_t b = byte();
      if (b > 1) return fail("an optional's flag");
      if (b == 0) {
        out.reset();
      } else {
        out.emplace();
        read(*out);
      }
    } else if constexpr (kIsPair<T>) {
      read(out.first);
      read(out.second);
    } else if constexpr (kIsVector<T>) {
      const uint64_t n = unsignedInteger();
      if (!error_.empty()) return;
      // Every element takes one byte at least: a longer list cannot be there.
      if (n > static_cast<uint64_t>(end_ - at_)) return fail("a list's elements");
      out.clear();
      out.reserve(static_cast<size_t>(n));
      for (uint64_t i = 0; i < n && error_.empty(); ++i) {
        out.emplace_back();
        read(out.back());
      }
    } else {
      describeFields(*this, out);
    }
  }

  // The error with the fields it was met in.
  std::string why() const { return where_.empty() ? error_ : where_ + ": " + error_; }

 private:
  uint8_t byte() {
    if (at_ == end_) {
      fail("more bytes (cut short)");
      return 0;
    }
    return static_cast<uint8_t>(*at_++);
  }
  uint64_t unsignedInteger() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const uint8_t b = byte();
      if (!error_.empty()) return 0;
      v |= static_cast<uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    fail("a varint of 10 bytes at most");
    return 0;
  }
  int64_t integer() {
    const uint64_t z = unsignedInteger();
    return static_cast<int64_t>((z >> 1) ^ (~(z & 1) + 1));
  }
  void fail(const char* expected) {
    if (error_.empty()) error_ = std::string("expected ") + expected;
  }

  const char* at_;
  const char* end_;
  std::string error_;
  std::string where_;
};

// An outcome's members after the records: what the result cache and the parent need.
template <class V, class O>
void outcomeMembers(V& v, O& o) {
  v.field("inputs", o.inputs);
  v.field("cacheable", o.cacheable);
  v.field("pch_unusable", o.pchUnusable);
  v.field("siblings_asked", o.siblings.asked);  // sibling_text.h: checked again by the result cache
  v.field("siblings_file", o.siblings.file);
  v.field("siblings_file_defines_main", o.siblings.fileDefinesMain);
  v.field("siblings_linked", o.siblings.linked);
  v.field("siblings_included", o.siblings.included);
  v.field("siblings_one_program", o.siblings.oneProgram);
  v.field("siblings_read", o.siblings.read);
  v.field("siblings_kept", o.siblingsKept);
}

std::string begin() { return std::string(kMagic, sizeof kMagic); }

}  // namespace

std::string recordsToBinary(const AnalysisResult& records) {
  std::string out = begin();
  BinaryWriter w(out);
  describeFields(w, records);
  return out;
}

std::string recordsFromBinary(std::string_view data, AnalysisResult& out) {
  BinaryReader r(data);
  if (!r.take(kMagic, sizeof kMagic)) return "not the records' binary form (or another version of it)";
  AnalysisResult result;
  describeFields(r, result);
  if (!r.error().empty()) return r.why();
  if (!r.atEnd()) return "bytes left after the records";
  out = std::move(result);
  return {};
}

std::string outcomeToWire(const WorkerOutcome& outcome) {
  std::string out = begin();
  out.reserve(64 + outcome.tu.accesses.size() * 512);
  BinaryWriter w(out);
  // AnalysisResult's members (fields.h), written from the outcome's own lists rather than
  // from a copy of them, in describeFields(AnalysisResult)'s order: a member missing or out of
  // order here fails test/analysis/worker_protocol_test.cpp's run through forked workers.
  w.field("files", std::vector<FileRecord>{outcome.file});
  w.field("kernels", outcome.tu.kernels);
  w.field("accesses", outcome.tu.accesses);
  w.field("branches", outcome.tu.branches);
  w.field("barriers", outcome.tu.barriers);
  w.field("pointer_params", outcome.tu.pointerParams);
  outcomeMembers(w, outcome);
  return out;
}

std::string outcomeFromWire(std::string_view text, WorkerOutcome& out) {
  BinaryReader r(text);
  if (!r.take(kMagic, sizeof kMagic)) return "not a worker's outcome (or another version of its form)";
  AnalysisResult records;
  describeFields(r, records);
  WorkerOutcome o;
  outcomeMembers(r, o);
  if (!r.error().empty()) return r.why();
  if (!r.atEnd()) return "bytes left after the outcome";
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
